"""The page's charts as inline SVG strings, drawn by matplotlib with one shared style.

`level_charts` draws one point per level (throughput, latency, errors, CPU per request), `server_charts` one point
per second from server.csv; both lay out a panel per mode with `grid` (shared axes, so equal heights mean equal
values), draw the knee, limits and predictions with `marks`, and take colours and sizes from `chart_style`;
`percentile_charts` draws the percentiles over time and the spectrum at one rate. Figures are built with
`matplotlib.figure.Figure` (no pyplot state); `svg` pins ids and metadata so the same run gives the same bytes.
"""
