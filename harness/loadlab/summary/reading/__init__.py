"""Reading a mode's raw files into typed values, without judging them: each value and CSV row once (values.py,
raw_rows.py), the injectors' meta.json, the flight recording and the wait agent's file, the mode as one RawMode
(raw.py), and its seconds aligned to its levels (seconds.py: the per-second tables and each level's counts,
histogram and sampled evidence)."""
