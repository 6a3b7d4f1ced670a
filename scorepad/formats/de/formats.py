"""German dates as Django writes them; MONTH_DAY_FORMAT is the short date of chart axes."""

MONTH_DAY_FORMAT = "d.m."
