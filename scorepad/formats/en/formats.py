"""English as written at a Central European card table: day before month, 24-hour times
(Django's "en" would write 11/23/2026 6:19 a.m.). MONTH_DAY_FORMAT is the short date of
chart axes."""

DATE_FORMAT = "j F Y"
TIME_FORMAT = "H:i"
DATETIME_FORMAT = "j F Y, H:i"
SHORT_DATE_FORMAT = "d/m/Y"
SHORT_DATETIME_FORMAT = "d/m/Y H:i"
MONTH_DAY_FORMAT = "d/m"
