"""The derived files beside summary.json: timeline.csv's and server.csv's columns, each level's .hgrm file, and the
one writer that replaces a file whole, never half-written (outputs.py). summary.json itself is written by the
package's entry (summary/__init__.py)."""
