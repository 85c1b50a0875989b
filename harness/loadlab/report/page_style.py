"""The page's one stylesheet, inlined in its <style> (the page loads nothing)."""

CSS = """
:root { --ok: #1a7f37; --bad: #b42318; --muted: #5f6b7a; --line: #d9dee4; --soft: #f5f7f9; }
* { box-sizing: border-box; }
body { margin: 0; font: 15px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: #1d232a; }
main { max-width: 1200px; margin: 0 auto; padding: 24px; }
h1 { font-size: 1.6em; margin: 0 0 4px; }
h1 small { font-weight: normal; color: var(--muted); font-size: 0.6em; }
h2 { font-size: 1.2em; margin: 32px 0 8px; border-bottom: 1px solid var(--line); padding-bottom: 4px; }
h3 { font-size: 1em; margin: 16px 0 6px; }
.answer { font-size: 1.4em; font-weight: 600; margin: 12px 0 8px; }
.headline { font-size: 1.15em; padding: 12px 16px; border-left: 5px solid var(--muted); background: var(--soft); }
.headline.valid { border-color: var(--ok); }
.headline.invalid { border-color: var(--bad); }
.box { padding: 10px 16px; margin: 16px 0; border: 1px solid; border-radius: 4px; }
.box.missing { border-color: #e0a800; background: #fff8e1; }
.box.invalid { border-color: var(--bad); background: #fdecea; }
.box.note { border-color: #8aa4c8; background: #eef3fa; }
.box h3 { margin-top: 4px; }
table { border-collapse: collapse; margin: 6px 0 12px; font-size: 0.9em; }
th, td { border: 1px solid var(--line); padding: 3px 8px; text-align: right; vertical-align: top; }
th { background: var(--soft); }
td.text, th.text { text-align: left; }
/* One column per mode (a pool sweep's too): the columns share the page's width and their sentences wrap. */
table.columns { width: 100%; table-layout: fixed; }
table.columns th:first-child { width: 15em; }
table.columns td { overflow-wrap: anywhere; }
tr.unhealthy td { background: #fdecea; }
tr.set-aside td { background: #f1f1f1; color: #555; }
td.reason { text-align: left; min-width: 18em; }
#levels table { width: 100%; }
tr.sustained td { font-weight: bold; }
.grid { display: grid; grid-template-columns: repeat(auto-fit, minmax(480px, 1fr)); gap: 16px; }
figure.chart { margin: 12px 0 20px; }
figure.chart svg { width: 100%; height: auto; }
figcaption { color: var(--muted); font-size: 0.9em; }
.yes { color: var(--ok); font-weight: bold; }
.no { color: var(--bad); font-weight: bold; }
.muted { color: var(--muted); }
code { background: var(--soft); padding: 0 3px; }
.spectrum-block { display: grid; grid-template-columns: minmax(420px, 1fr) minmax(0, auto); gap: 16px; }
.spectrum-block { align-items: start; }
table.spectrum td { white-space: nowrap; }
@media (max-width: 900px) { .spectrum-block { grid-template-columns: 1fr; } }
table.spectrum td.muted { font-style: italic; }
#spectra details { margin: 8px 0 16px; }
"""
