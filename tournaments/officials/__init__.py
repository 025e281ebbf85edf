"""An official event's panel of judges, and the register of sanctions (disqualifications)."""
