"""A match's life, in one place: its result flow (``results``: report, confirm, dispute,
resolve, correct; ``guards``), its recording at the table (``live``), its record as a .mat text
(``records``) and its board replay (``board``, ``tasks``). What happens when a result is decided
or corrected is announced once by ``signals``: ratings and analysis subscribe to it, so this
package imports neither of them."""
