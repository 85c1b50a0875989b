"""The judged modes spelled as summary.json: each mode's verdict as a ModeRecord (verdict.py, from the parts it
gathers: predictions, prescription, fan-out, brownout, notes), the run's RunSummary (records.py) with its ratios,
repetitions and ladder, and the words a prediction is shown with (prediction_text.py)."""
