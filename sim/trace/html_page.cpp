#include "sim/trace/html_page.h"

#include <fstream>
#include <nlohmann/json.hpp>

#include "sim/common/error.h"

namespace lanelab::trace {

namespace {

const char* const kPage = R"HTML(<!DOCTYPE html>
<html><head><meta charset="utf-8"><title>lanelab step</title>
<style>
body { font-family: monospace; margin: 1em; }
table.lanes td, table.lanes th { border: 1px solid #999; padding: 2px 8px; text-align: right; }
td.on { background: #b7e4b0; } td.off { background: #ddd; color: #888; } td.absent { background: #fff; color: #ccc; }
td.T { background: #cde; } td.F { background: #fdd; }
pre.source span.current { background: #ffe27a; }
#events { color: #a33; min-height: 1.2em; }
</style></head><body>
<h3 id="title"></h3>
<div><button id="first">|&lt;</button> <button id="prev">&lt; back</button>
<button id="next">next &gt;</button> <button id="last">&gt;|</button>
<span id="position"></span> (arrow keys step)</div>
<p id="where"></p>
<table class="lanes" id="lanes"></table>
<p id="events"></p>
<pre class="source" id="source"></pre>
<script>
const run = @DATA@;
let at = 0;
function cell(text, cls) { const td = document.createElement('td'); td.textContent = text; if (cls) td.className = cls; return td; }
function show() {
  const row = run.rows[at];
  document.getElementById('title').textContent = run.machine;
  document.getElementById('position').textContent = 'cycle ' + row.cycle + ' (' + (at + 1) + ' of ' + run.rows.length + ')';
  document.getElementById('where').textContent = 'pc ' + row.pc + '  line ' + row.line + ': ' + row.source + (row.spirv ? '   [' + row.spirv + ']' : '');
  const table = document.getElementById('lanes');
  table.innerHTML = '';
  const head = document.createElement('tr');
  head.appendChild(document.createElement('th'));
  run.lanes.forEach(l => { const th = document.createElement('th'); th.textContent = 'lane ' + l; head.appendChild(th); });
  table.appendChild(head);
  const mask = document.createElement('tr');
  mask.appendChild(cell('mask'));
  [...row.mask].forEach(c => mask.appendChild(cell(c, c === '1' ? 'on' : c === '0' ? 'off' : 'absent')));
  table.appendChild(mask);
  const p = document.createElement('tr');
  p.appendChild(cell('p'));
  [...row.p].forEach(c => p.appendChild(cell(c, c === '-' ? '' : c)));
  table.appendChild(p);
  run.watches.forEach((name, w) => {
    const tr = document.createElement('tr');
    tr.appendChild(cell(name));
    row.values[w].forEach((v, i) => tr.appendChild(cell(v, row.mask[i] === '1' ? 'on' : row.mask[i] === '0' ? 'off' : 'absent')));
    table.appendChild(tr);
  });
  const alu = document.createElement('tr');
  alu.appendChild(cell('alu'));
  const td = cell(row.alu); td.colSpan = run.lanes.length; td.style.textAlign = 'left'; alu.appendChild(td);
  table.appendChild(alu);
  document.getElementById('events').textContent = row.events.join('; ');
  const src = document.getElementById('source');
  src.innerHTML = '';
  run.source.forEach((text, i) => {
    if (i + 1 < run.first_line) return;
    const span = document.createElement('span');
    span.textContent = String(i + 1).padStart(4) + '  ' + text + '\n';
    if (i + 1 === row.line) span.className = 'current';
    src.appendChild(span);
  });
}
function go(n) { at = Math.max(0, Math.min(run.rows.length - 1, n)); show(); }
document.getElementById('first').onclick = () => go(0);
document.getElementById('prev').onclick = () => go(at - 1);
document.getElementById('next').onclick = () => go(at + 1);
document.getElementById('last').onclick = () => go(run.rows.length - 1);
document.addEventListener('keydown', e => { if (e.key === 'ArrowRight') go(at + 1); if (e.key === 'ArrowLeft') go(at - 1); });
show();
// file://...#selftest: the test in headless Chromium steps with the arrow keys
// and reads the position back from the DOM.
if (location.hash === '#selftest') {
  ['ArrowRight', 'ArrowRight', 'ArrowLeft'].forEach(key => document.dispatchEvent(new KeyboardEvent('keydown', {key})));
  const result = document.createElement('p');
  result.id = 'selftest';
  result.textContent = 'selftest position ' + at + ' cycle ' + run.rows[at].cycle + ' mask ' + run.rows[at].mask;
  document.body.appendChild(result);
}
</script></body></html>
)HTML";

}  // namespace

void write_html_page(const Recording& rec, uint32_t workgroup, uint32_t subgroup, const StepView& view,
                     const std::string& path) {
  using nlohmann::json;
  json data;
  data["machine"] = describe_machine(rec, workgroup, subgroup, view);
  data["watches"] = json::array();
  for (const auto& w : rec.watches) data["watches"].push_back(w.name);
  data["lanes"] = json::array();
  for (uint32_t l = view.first_lane; l <= view.last_lane; ++l) data["lanes"].push_back(l);
  data["rows"] = json::array();
  for (size_t r : rec.rows_of(workgroup, subgroup)) {
    const StepRow& row = rec.rows[r];
    const int line = rec.program->instructions[row.pc].line;
    std::string mask, predicate;
    for (uint32_t lane = view.first_lane; lane <= view.last_lane; ++lane) {
      const bool exists = core::lane_in(row.lanes, lane);
      mask += !exists ? '-' : core::lane_in(row.active, lane) ? '1' : '0';
      predicate += !exists || !core::lane_in(row.predicate_known, lane) ? '-'
                   : core::lane_in(row.predicate, lane)                  ? 'T'
                                                                         : 'F';
    }
    json values = json::array();
    for (size_t w = 0; w < rec.watches.size(); ++w) {
      json lanes = json::array();
      for (uint32_t lane = view.first_lane; lane <= view.last_lane; ++lane) {
        auto v = rec.value(r, w, lane);
        lanes.push_back(v ? format_value(rec.watches[w].kind, rec.watches[w].bits, *v) : "-");
      }
      values.push_back(lanes);
    }
    data["rows"].push_back({{"cycle", row.cycle},
                            {"pc", row.pc},
                            {"line", line},
                            {"source", rec.source_text(line)},
                            {"spirv", view.spirv ? rec.instruction_text(row.pc) : ""},
                            {"mask", mask},
                            {"p", predicate},
                            {"values", values},
                            {"alu", alu_column(rec, r, view)},
                            {"events", row.events}});
  }
  if (data["rows"].empty()) throw Error("--html: the chosen subgroup issued nothing");
  data["source"] = json::array();
  size_t first_text = 0;  // the script's lines before the shader are blank
  while (first_text < rec.source_lines.size() && rec.source_lines[first_text].empty()) ++first_text;
  for (size_t i = 0; i < rec.source_lines.size(); ++i) data["source"].push_back(rec.source_lines[i]);
  data["first_line"] = first_text + 1;
  std::string page = kPage;
  // "</" inside the data would end the script element early.
  std::string text = data.dump();
  for (size_t at = 0; (at = text.find("</", at)) != std::string::npos; at += 3) text.replace(at, 2, "<\\/");
  page.replace(page.find("@DATA@"), 6, text);
  std::ofstream out(path);
  if (!out) throw Error("cannot write " + path);
  out << page;
}

}  // namespace lanelab::trace
