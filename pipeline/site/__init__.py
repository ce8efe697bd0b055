"""The published lists as a static site players use (`ratings site`): an index of the
lists, a page per list with its ranking and filters, a page per player with the
rating history and calculation cards, club pages, a search on every page; in
English, French, Dutch and German (gettext catalogues in locale/, Jinja2's i18n
extension, Babel's number and date formats). Plain files: it works from a file
system or any web server, without a server program or the network.

pipeline/site/data.py reads the warehouse (set-based: sql/site/), build.py writes
the pages, i18n.py holds the catalogues.
"""
