// The page `feerie serve` serves at `/`: HTML, CSS and script in one document, nothing
// fetched from elsewhere. The script talks to the server's own API (tools/cmd_serve.cpp):
// /api/moves for the value, the moves and the variation, /api/diagram for the board; with a
// helpmate or selfmate stipulation chosen, /api/help and /api/help-stat instead.
// `__DEFAULT_CONDITION__` is replaced by the server's --condition (a JSON string).
#pragma once

namespace feerie {

inline constexpr const char* ServePage = R"html(<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Feerie viewer</title>
<style>
  body { font-family: sans-serif; margin: 1em 2em; color: #222; }
  h1 { font-size: 1.3em; margin: 0 0 .6em 0; }
  form { display: flex; gap: .5em; flex-wrap: wrap; align-items: center; margin-bottom: 1em; }
  #fen { width: 34em; font-family: monospace; }
  #condition { width: 12em; font-family: monospace; }
  main { display: flex; gap: 2em; align-items: flex-start; }
  #board svg { display: block; }
  #panel { flex: 1; min-width: 22em; }
  #value { font-size: 1.15em; font-weight: bold; margin: .2em 0 .6em 0; }
  #error { color: #a00000; font-weight: bold; margin: .5em 0; white-space: pre-wrap; }
  #error:empty { display: none; }
  table { border-collapse: collapse; }
  td { padding: .15em .6em .15em 0; vertical-align: top; }
  td.value { white-space: nowrap; }
  td.pv { color: #555; font-family: monospace; font-size: .9em; }
  button.move { font-family: monospace; min-width: 5.5em; cursor: pointer; }
  tr.win td.value { color: #006400; }
  tr.loss td.value { color: #a00000; }
  #pv { font-family: monospace; }
  #nav { margin: .6em 0; }
  #stats { white-space: pre-wrap; font-size: .9em; }
</style>
</head>
<body>
<h1>Feerie viewer</h1>
<form id="form">
  <label>FEN <input id="fen" name="fen" spellcheck="false"></label>
  <label>condition <input id="condition" name="condition" spellcheck="false"></label>
  <label>stipulation <select id="stipulation">
    <option value="#">#, direct mate</option>
    <option value="h#:black">h#, Black mated</option>
    <option value="h#:white">h#, White mated</option>
    <option value="s#:white">s#, White mated</option>
    <option value="s#:black">s#, Black mated</option>
  </select></label>
  <button type="submit" id="show">Show</button>
</form>
<div id="error" role="alert"></div>
<main>
  <div id="board"></div>
  <div id="panel">
    <div id="value"></div>
    <div id="nav">
      <button type="button" id="back" title="Back (left arrow)">&#8592; back</button>
      <button type="button" id="forward" title="Forward (right arrow)">forward &#8594;</button>
      <span id="ply"></span>
    </div>
    <div><span id="pv-title">Principal variation</span>: <span id="pv"></span></div>
    <h2 style="font-size:1em" id="tree-title">Solution (at most 3 replies after each move)</h2>
    <pre id="tree"></pre>
    <h2 style="font-size:1em">Statistics of the material</h2>
    <div id="stats"></div>
    <h2 style="font-size:1em" id="moves-title">Every legal move, for the side that plays it</h2>
    <table id="moves"><tbody></tbody></table>
  </div>
</main>
<script>
"use strict";
const defaultCondition = __DEFAULT_CONDITION__;
// `shown` counts the positions show() was asked for: an answer that arrives after the user has
// gone on to another position (back, forward, another move) is for a position no longer
// shown, and is dropped.
const state = { history: [], index: -1, condition: defaultCondition, stipulation: "#", shown: 0 };
const $ = (id) => document.getElementById(id);

function query(path, fen) {
  return path + "?fen=" + encodeURIComponent(fen) + "&condition=" + encodeURIComponent(state.condition);
}

// The chosen helpmate or selfmate stipulation as API parameters: "h#:black" gives
// "&stipulation=h%23&mated=black".
function helpParameters() {
  const [kind, mated] = state.stipulation.split(":");
  return "&stipulation=" + encodeURIComponent(kind) + "&mated=" + mated;
}

// A helpmate (selfmate) entry as `feerie probe --stipulation h#` says it.
function helpText(p) {
  const word = p.stipulation === "s#" ? "selfmate" : "helpmate";
  if (p.plies === undefined) return "No " + word + " (" + p.mated + " mated)";
  const plies = p.plies + (p.plies === 1 ? " ply" : " plies");
  const name = p.problem ? " (" + p.problem + ")" : "";
  if (p.stipulation === "s#") return p.mated + " mated in " + plies + name + ", forced";
  const count = p.solutions_capped ? p.solutions + " or more" : String(p.solutions);
  return p.mated + " mated in " + plies + name + ", " + count + " solution" + (p.solutions === 1 ? "" : "s");
}

function helpMoveText(m, stipulation) {
  const word = stipulation === "s#" ? "selfmate" : "helpmate";
  if (m.plies === undefined) return "no " + word + " after it";
  if (m.plies === 0) return "checkmate";
  return "then " + m.plies + (m.plies === 1 ? " ply" : " plies") +
      (m.solutions === undefined ? "" : ", " + m.solutions + (m.solutions >= 255 ? " or more" : "") + " solution" +
       (m.solutions === 1 ? "" : "s"));
}

// A move's value for the side that plays it, as `feerie probe --moves` says it.
// SAN moves as a numbered line from `fen`: "1.Kc2 Kb8 2.Qb7#", "1...Kb8 2.Qb7#".
function numberedLine(fen, sans) {
  let white = fen.split(" ")[1] === "w", number = 1;
  const out = [];
  sans.forEach((m, i) => {
    if (white) out.push(number + "." + m);
    else { out.push(i ? m : number + "..." + m); ++number; }
    white = !white;
  });
  return out.join(" ");
}

function moveText(m) {
  if (m.checkmate) return "checkmate";
  if (m.stalemate) return "stalemate (draw)";
  if (m.wdl === "draw") return "draw";
  if (m.wdl === "win") return "mates in " + Math.abs(m.mate_in);
  return "is mated in " + Math.abs(m.mate_in);
}

function positionText(p) {
  const side = p.fen.split(" ")[1] === "w" ? "White" : "Black";
  if (p.wdl === "draw") return p.moves && p.moves.length === 0 ? "Draw: " + side + " is stalemated" : "Draw";
  if (p.dtm_plies === 0) return side + " is checkmated";
  if (p.wdl === "win") return side + " to move mates in " + Math.abs(p.mate_in);
  return side + " to move is mated in " + Math.abs(p.mate_in);
}

// A row of the moves' table for `m` (its `move`, `san` and `fen_after`), of class
// `className`, holding the button that plays it; the caller adds the value cells.
function moveRow(body, m, className, generation) {
  const row = body.insertRow();
  row.className = className;
  row.dataset.move = m.move;
  const button = document.createElement("button");
  button.className = "move";
  button.textContent = m.san;
  button.title = "Play " + m.san + " (" + m.move + ")";
  // Only while its position is the one shown: a second click, or a click while the next
  // position loads, would add the move to the line twice.
  button.addEventListener("click", () => {
    if (generation === state.shown) state.pending = play(m.fen_after);
  });
  row.insertCell().appendChild(button);
  return row;
}

// The server's message in place of the position's panel (and of the board, unless the
// diagram of the position asked could be drawn).
function showFailure(e, svg) {
  $("error").textContent = e.message;
  if (svg && svg.status === "fulfilled") $("board").innerHTML = svg.value;
  else $("board").replaceChildren();
  $("value").textContent = "";
  $("pv").textContent = "";
  $("tree").textContent = "";
  $("moves").tBodies[0].replaceChildren();
}

async function fetchOk(url) {
  const response = await fetch(url);
  if (!response.ok) {
    let message = response.status + " " + response.statusText;
    try { message = (await response.json()).error; } catch (e) {}
    throw new Error(message);
  }
  return response;
}

// Shows the position at state.index; resolves to whether it was shown whole (false after an
// error, or when the user went on to another position meanwhile).
async function show() {
  const generation = ++state.shown;
  const fen = state.history[state.index];
  $("fen").value = fen;
  $("condition").value = state.condition;
  $("back").disabled = state.index <= 0;
  $("forward").disabled = state.index >= state.history.length - 1;
  $("ply").textContent = state.index > 0 ? "move " + state.index + " of the line" : "";
  // As an attribute too, so that the page's HTML says which is chosen.
  for (const option of $("stipulation").options) option.toggleAttribute("selected", option.value === state.stipulation);
  history.replaceState(null, "", "?fen=" + encodeURIComponent(fen) + "&condition=" + encodeURIComponent(state.condition) +
      (state.stipulation === "#" ? "" : "&stipulation=" + encodeURIComponent(state.stipulation)));
  $("error").textContent = "";
  const help = state.stipulation !== "#";
  $("pv-title").textContent = help ? "First solution" : "Principal variation";
  $("tree-title").textContent = help ? "Shortest solutions (at most 5)" : "Solution (at most 3 replies after each move)";
  $("moves-title").textContent = help ? "Every legal move, with the " +
      (state.stipulation.startsWith("s#") ? "selfmate" : "helpmate") + " left after it" :
      "Every legal move, for the side that plays it";
  if (help) return showHelp(fen, generation);
  const stats = showStats(fen, generation);  // in parallel; awaited below so that show() ends when the page is complete
  const [svg, answer] = await Promise.allSettled([
    fetchOk(query("/api/diagram", fen) + "&size=420").then((r) => r.text()),
    fetchOk(query("/api/moves", fen) + "&tree=3").then((r) => r.json())]);
  if (generation !== state.shown) return false;
  let shown = false;
  try {
    if (answer.status === "rejected") throw answer.reason;
    if (svg.status === "rejected") throw svg.reason;
    const data = answer.value;
    $("board").innerHTML = svg.value;
    $("value").textContent = positionText(data);
    // (The server's FEN: the one typed may have other spaces between its fields.)
    $("pv").textContent = data.pv_san.length ? numberedLine(data.fen, data.pv_san) : "(none)";
    $("tree").textContent = data.tree_text || "(none: a draw, or the side to move is mated)";
    const body = $("moves").tBodies[0];
    body.replaceChildren();
    for (const m of data.moves) {
      const row = moveRow(body, m, m.wdl, generation);
      const value = row.insertCell();
      value.className = "value";
      value.textContent = moveText(m);
      const pv = row.insertCell();
      pv.className = "pv";
      pv.textContent = m.pv_san && m.pv_san.length ? numberedLine(m.fen_after, m.pv_san) : "";
    }
    shown = true;
  } catch (e) {
    showFailure(e, svg);
  }
  await stats;
  return shown && generation === state.shown;
}

// The units of each side, as sorted lists ("K,Q" and "K,R"; a magic rook "mR"), of a FEN's
// board or of a material name.
function sidesOfFen(fen) {
  const white = [], black = [];
  const board = fen.trim().split(/\s+/)[0];
  for (let i = 0; i < board.length; ++i) {
    const c = board[i];
    if (!/[a-z]/i.test(c)) continue;
    const unit = (board[i + 1] === "*" ? "m" : "") + c.toUpperCase();
    (c === c.toUpperCase() ? white : black).push(unit);
  }
  return [white.sort().join(","), black.sort().join(",")];
}
function sidesOfMaterial(name) {
  return name.split("v").map((side) => (side.match(/m?[A-Z]/g) || []).sort().join(","));
}

// The statistics are those of the stored table, which may hold the material with the
// colours the other way round: then its White is the board's Black, and the page says so.
function orientationNote(fen, material) {
  const [white, black] = sidesOfFen(fen);
  const [storedWhite, storedBlack] = sidesOfMaterial(material);
  return white === storedBlack && black === storedWhite && white !== black ?
      " - stored with the colours the other way round: its White is Black on this board" : "";
}

// The statistics of the position's material (/api/stat, as `feerie stat --json`): a line per
// side to move. A failure here leaves the rest of the page as it is.
async function showStats(fen, generation) {
  try {
    const s = await fetchOk(query("/api/stat", fen)).then((r) => r.json());
    if (generation !== state.shown) return;
    const line = (name, side) => name + " to move: " + side.positions.toLocaleString("en") + " positions, " +
        side.win.toLocaleString("en") + " win, " + side.draw.toLocaleString("en") + " draw, " +
        side.loss.toLocaleString("en") + " loss" +
        (side.longest_mate_plies === null ? "" : "; longest mate " + side.longest_mate_moves + " moves, e.g. " +
         side.longest_mate_fen);
    $("stats").textContent = s.material + " (" + s.condition + ")" + orientationNote(fen, s.material) + "\n" +
        line("White", s.wtm) + "\n" + line("Black", s.btm);
  } catch (e) {
    if (generation === state.shown) $("stats").textContent = e.message;
  }
}

// The page under a helpmate or selfmate stipulation: the entry, the solutions (h#), every
// move with the entry after it, and the lengths of the material's table.
async function showHelp(fen, generation) {
  const stats = showHelpStats(fen, generation);
  const [svg, answer] = await Promise.allSettled([
    fetchOk(query("/api/diagram", fen) + "&size=420").then((r) => r.text()),
    fetchOk(query("/api/help", fen) + helpParameters() + "&solutions=5").then((r) => r.json())]);
  if (generation !== state.shown) return false;
  let shown = false;
  try {
    if (answer.status === "rejected") throw answer.reason;
    if (svg.status === "rejected") throw svg.reason;
    const data = answer.value;
    $("board").innerHTML = svg.value;
    $("value").textContent = helpText(data);
    const lines = data.solution_lines || [];
    $("pv").textContent = lines.length ? lines[0] : "(none)";
    // (As probe --stipulation h# says it: a count held at 255 is "255 or more".)
    const count = data.solutions_capped ? data.solutions + " or more" : String(data.solutions);
    $("tree").textContent = lines.length ? lines.join("\n") +
        (lines.length < data.solutions ? "\n(" + lines.length + " of " + count + " shown)" : "") :
        (data.stipulation === "s#" && data.plies !== undefined ? "(a selfmate's solution is a tree: follow the moves)"
                                                               : "(none)");
    const body = $("moves").tBodies[0];
    body.replaceChildren();
    for (const m of data.moves) {
      const row = moveRow(body, m, data.plies !== undefined && m.plies === data.plies - 1 ? "win" : "", generation);
      const value = row.insertCell();
      value.className = "value";
      value.textContent = helpMoveText(m, data.stipulation);
    }
    shown = true;
  } catch (e) {
    showFailure(e, svg);
  }
  await stats;
  return shown && generation === state.shown;
}

async function showHelpStats(fen, generation) {
  try {
    const s = await fetchOk(query("/api/help-stat", fen) + helpParameters()).then((r) => r.json());
    if (generation !== state.shown) return;
    const word = s.stipulation === "s#" ? "selfmate" : "helpmate";
    const line = (name, side) => name + " to move: " + side.positions.toLocaleString("en") + " positions, " +
        side.with_mate.toLocaleString("en") + " with a " + word +
        (side.unique === undefined ? "" : " (" + side.unique.toLocaleString("en") + " with a unique solution)") +
        (side.longest_plies === null ? "" : "; longest " + side.longest_plies + " plies" +
         (side.longest_problem ? " (" + side.longest_problem + ")" : "") + ", e.g. " + side.longest_fen);
    $("stats").textContent = s.material + " (" + s.condition + "), " + s.stipulation + ", " + s.mated + " mated" +
        orientationNote(fen, s.material) + "\n" + line("White", s.wtm) + "\n" + line("Black", s.btm);
  } catch (e) {
    if (generation === state.shown) $("stats").textContent = e.message;
  }
}

function play(fenAfter) {
  state.history = state.history.slice(0, state.index + 1);
  state.history.push(fenAfter);
  state.index += 1;
  return show();
}

// `?moves=a1b2,c3d4`: plays a line from the FEN by clicking each move's button, as a
// user would (a link to a line; the browser test uses it too), when the FEN's own position
// was shown (otherwise its error stays on the page). Sets data-ready on <body> when the
// page has settled.
async function playLine(moves, shown) {
  if (!shown) return;
  for (const move of moves) {
    const button = document.querySelector('#moves tr[data-move="' + CSS.escape(move) + '"] button');
    if (!button) {
      $("error").textContent = "move " + move + " is not legal in " + state.history[state.index];
      return;
    }
    button.click();
    if (!(await state.pending)) return;  // the server's message for the position reached is shown
  }
}

function go(step) {
  const next = state.index + step;
  if (next < 0 || next >= state.history.length) return;
  state.index = next;
  show();
}

$("form").addEventListener("submit", (event) => {
  event.preventDefault();
  state.condition = $("condition").value.trim() || defaultCondition;
  state.stipulation = $("stipulation").value;
  state.history = [$("fen").value.trim()];
  state.index = 0;
  show();
});
$("back").addEventListener("click", () => go(-1));
$("forward").addEventListener("click", () => go(1));
document.addEventListener("keydown", (event) => {
  if (event.target.tagName === "INPUT") return;
  if (event.key === "ArrowLeft") go(-1);
  if (event.key === "ArrowRight") go(1);
});

const params = new URLSearchParams(location.search);
state.condition = params.get("condition") || defaultCondition;
$("condition").value = state.condition;
if (["h#:black", "h#:white", "s#:white", "s#:black"].includes(params.get("stipulation")))
  state.stipulation = params.get("stipulation");
$("stipulation").value = state.stipulation;
if (params.get("fen")) {
  state.history = [params.get("fen")];
  state.index = 0;
  show()
    .then((shown) => playLine((params.get("moves") || "").split(",").filter((m) => m), shown))
    .finally(() => { document.body.dataset.ready = "true"; });
} else {
  document.body.dataset.ready = "true";
  $("back").disabled = true;
  $("forward").disabled = true;
  $("value").textContent = "Enter a position in FEN.";
}
</script>
</body>
</html>
)html";

}  // namespace feerie
