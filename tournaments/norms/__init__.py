"""The rank norms: the place an athlete must take at an event of a given status to meet a sport
rank's norm (the ЕВСК's tables: places by event status, discipline and gender)."""

from django.utils.translation import gettext_noop

#: The names of the example table's statuses (``example_norms.csv``): data in English, shown
#: in the page's language (``EventStatus.__str__``); a real table loaded in another language
#: shows its names as given.
EXAMPLE_STATUS_NAMES = (
    gettext_noop("Championship of Russia"),
    gettext_noop("All-Russian event"),
    gettext_noop("Regional championship"),
)
