"""`make plan`: what a run's measured costs mean on other hardware (plan.py builds the answer; instances.py reads
the dated EC2 table; figures.py reads the run; knees.py predicts each mode's knee on a host; sizing.py sizes the
hosts for a target rate; hostspec.py checks what the user named)."""
