"""The rank norms: the place an athlete must take at an event of a given status to meet a sport
rank's norm (the ЕВСК's tables: places by event status, discipline and gender)."""
