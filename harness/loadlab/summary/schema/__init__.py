"""summary.json's parts as typed records, and the one converter (cattrs, record_fields.py) that writes them and reads
them back: a level and its fine passes, the fitted figures, the smaller details, a brownout's and a rung's record, and
the upgrade of a file whose levels were counted from 0. Below everything else in summary/: a record is declared here
and filled where its figures are read or judged. The whole of summary.json (RunSummary, ModeRecord) is
verdicts/records.py, above the judging: it holds a kind's, a fan-out's and a prescription's records, which are
declared beside the code that builds them."""
