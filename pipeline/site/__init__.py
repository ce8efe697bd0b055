"""The published lists as a static site players use (`ratings site`): an index of the
lists, a page per list with its ranking, filters and files to download, a page per
player with the rating history and calculation cards, club and event pages, a search
on every page, the JSON API the pages read (api/v1/), and with --pending the games
received for the next list; in English, French, Dutch and German (gettext catalogues
in locale/, Jinja2's i18n extension, Babel's number and date formats). Plain files
for any web server, without a server program: a page opened from the file system
shows what its HTML holds, and says that the rest needs the folder served.

data.py reads the warehouse (set-based: sql/site/), build.py writes the files,
i18n.py holds the catalogues, cards.py writes the calculation cards, downloads.py
the lists' files, pending.py the pre-publication check, slugs.py the file names of
clubs and events.
"""
