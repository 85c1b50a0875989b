"""How the samplers write, as both the run (watching them) and the summary (reading their rows) need it."""

# A sampler writes one row a second; a starved one may skip a second or two. This many seconds in a row without a row
# is a sampler that died or froze: those seconds have no server evidence.
SILENCE_S = 3
