"""Judging a mode from what reading/ gives: every pass's levels and knee, what makes the mode untrustworthy (a crash,
a warm-up not caught up with, gaps in the evidence, a live config that is not the one asked for), its costs and its
kinds, as typed values (judging.JudgedMode); bench plans the next fine pass from the same values (fine_plan.py)."""
