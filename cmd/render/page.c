/* What every page of tr-report holds: its style, its script (page.h). */
#include "page.h"

const char page_style[] =
	"body{font-family:sans-serif;margin:1.5em;color:#222}h1{font-size:1.4em}h2{font-size:1.15em;"
	"margin-top:1.6em}table{border-collapse:collapse;font-size:0.9em}th,td{padding:2px 8px;"
	"text-align:right;border-bottom:1px solid #ddd}th{background:#f0f0f0;cursor:pointer}"
	"td.name,th.name{text-align:left;max-width:40em;overflow-wrap:anywhere}"
	"table.summary th{cursor:default;text-align:left}"
	".bars td.bar{width:30em;text-align:left}.bars span{display:inline-block;height:0.9em}"
	"th[aria-sort=ascending]::after{content:' \\25b2'}th[aria-sort=descending]::after{content:' \\25bc'}"
	".note{color:#666;font-size:0.85em}.timeline{overflow-x:auto}"
	"#words li{margin-bottom:0.5em;max-width:60em}dl.patterns dt{font-weight:bold}"
	"dl.patterns dd{margin:0 0 0.4em 1.5em;max-width:60em}"
	"#diff-table td.bar{width:12em}#diff-table td.name{min-width:16em}"
	".zoom{margin:0.3em 0}.zoom button{min-width:2.2em;margin-right:0.3em}#timeline-window{color:#555}"
	"#timeline svg{cursor:grab;user-select:none}";

/* Sorting the rating by a click on a column's heading: by data-v, numbers as numbers. */
const char page_script[] =
	"document.querySelectorAll('table.sortable').forEach(function(t){"
	"t.querySelectorAll('th').forEach(function(h,col){h.addEventListener('click',function(){"
	"var down=h.getAttribute('aria-sort')!=='descending',body=t.tBodies[0],"
	"rows=Array.prototype.slice.call(body.rows),num=h.dataset.type==='num';"
	"rows.sort(function(a,b){var x=a.cells[col].dataset.v,y=b.cells[col].dataset.v,"
	"c=num?Number(x)-Number(y):x.localeCompare(y);return down?-c:c;});"
	"t.querySelectorAll('th').forEach(function(o){o.removeAttribute('aria-sort');});"
	"h.setAttribute('aria-sort',down?'descending':'ascending');"
	"rows.forEach(function(r){body.appendChild(r);});});});});";
