"""What the lists say over time: scenarios compared with the official lists, and how
well each set of ratings predicted the games (`ratings compare`, `ratings evaluate`).

A *source* of ratings is a series of the warehouse (a rule set's official lists or
a scenario) or a file of published ratings (`player_id, list_id, rating`, such as
a federation's own lists): pipeline/analysis/sources.py puts each in one shape, a
rating per player per list with the day the list came into force.
"""
