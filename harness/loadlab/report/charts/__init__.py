"""The page's charts as inline SVG strings, drawn by matplotlib with one shared style.

`levels` draws one point per level (throughput, latency, errors, CPU per request), `server` one point per second
from server.csv; both lay out a panel per mode with `grid` (shared axes, so equal heights mean equal values), draw
the knee, limits and predictions with `marks`, and take colours and sizes from `style`. Figures are built with
`matplotlib.figure.Figure` (no pyplot state); `svg` pins ids and metadata so the same run gives the same bytes.
"""
