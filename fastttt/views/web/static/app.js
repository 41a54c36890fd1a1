// fastttt explorer: plain JS over the JSON API of fastttt.web.app (no build step).
// The position lives in the URL: ?game=NAME&moves=TEXT&x=PLAYER&o=PLAYER&values=0|1&seconds=S,
// moves as people write them and `fastttt solve --moves` reads them (`2,2 1,1`, `4455`; the
// README's "Move numbering"); seconds: the search budget of move values and perfect play.
// Each move is kept twice: in API form (app.moves: what the picture's data-move holds) and as
// the server wrote it for people (app.moveTexts: st.move_texts, st.labels, a move job's label),
// so the page never numbers moves itself.
// A job the page no longer needs (the position changed) is cancelled (DELETE /api/jobs/ID).
// <body data-idle="1"> once no job runs (end-to-end tests wait on it).
"use strict";

const $ = (id) => document.getElementById(id);
const app = { game: "tictactoe", moves: [], moveTexts: [], players: { X: "human", O: "human" },
              showValues: true, seconds: 2, state: null, gen: 0, games: [], note: null,
              job: null };

async function api(path, options = {}) {
  if (options.body) options.headers = { "Content-Type": "application/json" };
  const response = await fetch(path, options);
  const data = await response.json();
  if (!response.ok) throw new Error(data.error || `HTTP ${response.status}`);
  return data;
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const movesText = () => app.moveTexts.join(" ");

function pushMove(move, text) { app.moves.push(move); app.moveTexts.push(text); }
function popMove() { app.moves.pop(); app.moveTexts.pop(); }
function clearMoves() { app.moves = []; app.moveTexts = []; }

function setBusy(text) {
  const p = $("progress");
  p.textContent = text || "";
  p.className = text ? "busy" : "idle";
  document.body.dataset.idle = text ? "0" : "1";
}

function showError(err) { $("error").textContent = err ? String(err.message || err) : ""; }

function urlFor() {
  const params = new URLSearchParams({ game: app.game, moves: movesText(),
    x: app.players.X, o: app.players.O, values: app.showValues ? "1" : "0",
    seconds: String(app.seconds) });
  return `${location.pathname}?${String(params).replace(/%2C/gi, ",")}`;  // 2,2+1,1
}

function readUrl() {
  const params = new URLSearchParams(location.search);
  app.game = params.get("game") || "tictactoe";
  app.movesFromUrl = params.get("moves") || "";
  app.players.X = params.get("x") || "human";
  app.players.O = params.get("o") || "human";
  app.showValues = params.get("values") !== "0";
  app.seconds = Number(params.get("seconds")) || 2;
  if (params.has("seconds") && !(Number(params.get("seconds")) > 0)) {
    app.note = `seconds=${params.get("seconds")} in the link is not a number of seconds: using 2.`;
  }
}

function cancelJob() {
  if (app.job) {
    fetch(`/api/jobs/${app.job}`, { method: "DELETE", keepalive: true }).catch(() => {});
  }
  app.job = null;
}

async function runJob(path, body, gen, label) {
  let job = await api(path, { method: "POST", body: JSON.stringify(body) });
  if (gen !== app.gen) {  // the position changed while the job was being posted
    fetch(`/api/jobs/${job.id}`, { method: "DELETE" }).catch(() => {});
    return null;
  }
  app.job = job.id;
  while (job.state === "running") {
    setBusy(`${label}: ${job.progress} (${job.seconds.toFixed(1)} s)`);
    await sleep(150);
    if (gen !== app.gen) return null;
    job = await api(`/api/jobs/${job.id}`);
  }
  if (app.job === job.id) app.job = null;
  if (gen !== app.gen || job.state === "cancelled") return null;
  if (job.state !== "done") throw new Error(job.error);  // failed, timeout
  return job.result;
}

function fillPlayers(list) {
  for (const side of ["X", "O"]) {
    const select = $(`player-${side.toLowerCase()}`);
    const names = list.includes(app.players[side]) ? list : [...list, app.players[side]];
    select.innerHTML = names.map((n) => `<option>${n}</option>`).join("");
    select.value = app.players[side];
  }
}

// The attractor grid says what the board says (one convention: the legend's): each move's
// label and colour as the server draws them on the board (W5, D, L4), its attractor region
// and rank in the tooltip and data attributes.
function showAttractor(view) {
  $("attractor-view").hidden = !view;
  if (!view) return;
  const { region, rank } = view.position;
  $("attractor-position").textContent = region === "draw"
    ? "This position is in the draw region (région nulle)."
    : `This position is in the attractor of ${region} at rank ${rank}: ${region} wins, ` +
      `the game ending ${rank} ${rank === 1 ? "ply" : "plies"} from now.`;
  const grid = $("attractor");
  grid.style.gridTemplateColumns = `repeat(${view.cols}, auto)`;
  const byCell = {};
  for (const [move, info] of Object.entries(view.moves)) byCell[info.cell] = { move, ...info };
  grid.innerHTML = view.cells.map((ch, cell) => {
    if (ch !== ".") return `<div class="stone">${ch}</div>`;
    const info = byCell[cell];
    if (!info) return "<div></div>";
    const where = info.region === "draw" ? "the draw region"
      : `the attractor of ${info.region}, rank ${info.rank}`;
    return `<div class="value" data-cell="${cell}" data-move="${info.move}" ` +
      `data-region="${info.region}" data-rank="${info.rank ?? ""}" ` +
      `style="background:${info.fill};color:${info.ink}" ` +
      `title="after this move: ${where}">${info.short}</div>`;
  }).join("");
}

// The page's one legend: the stones of this board (crosses and rings, or discs) and the value
// colours, both from the server's palette (fastttt.svg.palette), so they match the pictures.
function showLegend(st) {
  const palette = app.palette;
  if (!palette) return;
  const swatch = ([name, colour], shape) => `<span class="entry"><span class="swatch ${shape}" ` +
    `style="background:${colour}"></span>${name}</span>`;
  const stones = palette.stones.filter(([name]) => name.includes("disc") === st.gravity);
  $("legend-stones").innerHTML = "Stones: " +
    stones.map((s) => swatch(s, st.gravity ? "disc" : "ink")).join(" ");
  $("legend-values").innerHTML = "Move values: " +
    palette.values.map((v) => swatch(v, "value")).join(" ");
}

// The state of app.game after `moves`; on bad input (a shared URL with an illegal move, an
// unknown game) a message naming the bad value is shown and the game's start position, or
// tic-tac-toe's, is loaded.
async function fetchState(moves, gen) {
  const get = () => api(`/api/state?${new URLSearchParams({ game: app.game, moves })}`);
  try {
    return await get();
  } catch (err) {
    if (gen !== app.gen) throw err;
    let instead;  // the server's message names the bad value: "game: unknown game 'x'; ..."
    if (moves) { moves = ""; instead = "the start position"; }
    else if (app.game !== "tictactoe") { app.game = "tictactoe"; instead = "tic-tac-toe"; }
    else throw err;
    const st = await get();
    showError(`${err.message} (showing ${instead} instead)`);
    return st;
  }
}

// The Game select shows the game on the page: the listed game the server names as st.game
// (connect4, 6x7k4g and Connect4 are one game), else an option added for it (5x4k4g).
function showGame(st) {
  const select = $("game");
  const listed = app.games.find((g) => g.spec === st.game);
  if (listed) {
    select.value = listed.name;
    $("game-name").value = "";
    return;
  }
  let option = select.querySelector("option.named");
  if (!option) {
    option = document.createElement("option");
    option.className = "named";
    select.append(option);
  }
  option.value = app.game;
  option.textContent = `${app.game}: ${st.describe}`;
  select.value = app.game;
  $("game-name").value = app.game;
}

async function load(history = "replace") {
  cancelJob();
  const gen = ++app.gen;
  showError(null);
  setBusy("loading");
  const moves = app.movesFromUrl !== undefined ? app.movesFromUrl : movesText();
  app.movesFromUrl = undefined;
  let st;
  try {
    st = await fetchState(moves, gen);
  } catch (err) {
    if (gen === app.gen) { showError(err); setBusy(null); }
    return;
  }
  if (gen !== app.gen) return;
  app.state = st;
  app.moves = st.move_list;
  app.moveTexts = st.move_texts;
  $("board").innerHTML = st.svg;
  $("status").textContent = st.status;
  $("moves").textContent = st.moves || "(none)";
  $("note").textContent = app.note || "";
  $("source").textContent = "";
  app.note = null;
  showGame(st);
  fillPlayers(st.players);
  showAttractor(st.attractor);
  showLegend(st);
  $("legend-estimate").hidden = true;
  if (history === "push") window.history.pushState(null, "", urlFor());
  else window.history.replaceState(null, "", urlFor());
  document.body.dataset.ply = String(st.ply);
  try {
    if (!st.over && app.players[st.to_move] !== "human") {
      const result = await runJob("/api/move", { game: app.game, moves: movesText(),
        player: app.players[st.to_move], seconds: app.seconds }, gen,
        `${st.to_move} (${app.players[st.to_move]})`);
      if (result) {
        pushMove(result.move, result.label);
        app.note = result.note;
        load("push");
      }
      return;
    }
    if (app.showValues && !st.over) {
      const result = await runJob("/api/values", { game: app.game, moves: movesText(),
        seconds: app.seconds }, gen, "valuing moves");
      if (!result) return;
      $("board").innerHTML = result.svg;
      $("legend-estimate").hidden = result.source !== "engine";
      $("source").textContent = { table: "Values: exact, from the solved table.",
        book: "Values: exact, from the opening book.",
        search: result.complete ? "Values: exact search." : "Values: exact search; grey moves were not reached in the time budget.",
        engine: "Values: the engine's search; hatched cells are estimates, not proofs (see the legend)." }[result.source];
    }
    setBusy(null);
  } catch (err) {
    if (gen === app.gen) { showError(err); setBusy(null); }
  }
}

function play(move) {
  const st = app.state;
  if (!st || st.over || app.players[st.to_move] !== "human" || !st.legal.includes(move)) return;
  pushMove(move, st.labels[String(move)]);
  load("push");
}

function undo() {
  if (!app.moves.length) return;
  popMove();
  const human = (ply) => app.players["XO"[ply % 2]] === "human";
  while (app.moves.length && !human(app.moves.length)) popMove();
  load("push");
}

async function init() {
  readUrl();
  try {
    const listing = await api("/api/games");
    app.games = listing.games;
    app.palette = listing.palette;
  } catch (err) { showError(err); }
  $("game").innerHTML = app.games.map((g) => `<option value="${g.name}">${g.label}</option>`).join("");
  $("show-values").checked = app.showValues;
  $("seconds").value = String(app.seconds);
  $("seconds").addEventListener("change", (e) => {
    app.seconds = Number(e.target.value) || 2; load();
  });
  $("game").addEventListener("change", () => {
    app.game = $("game").value; clearMoves(); $("game-name").value = "";
    app.players = { X: "human", O: "human" }; load("push");
  });
  $("game-name").addEventListener("change", () => {
    if (!$("game-name").value.trim()) return;
    app.game = $("game-name").value.trim(); clearMoves(); load("push");
  });
  for (const side of ["X", "O"]) {
    $(`player-${side.toLowerCase()}`).addEventListener("change", (e) => {
      app.players[side] = e.target.value; load("replace");
    });
  }
  $("show-values").addEventListener("change", (e) => { app.showValues = e.target.checked; load(); });
  $("board").addEventListener("click", (e) => {
    const target = e.target.closest("[data-move]");
    if (target) play(Number(target.dataset.move));
  });
  $("undo").addEventListener("click", undo);
  $("new").addEventListener("click", () => { clearMoves(); load("push"); });
  $("share").addEventListener("click", async () => {
    try { await navigator.clipboard.writeText(location.href); setBusy(null); $("error").textContent = ""; $("progress").textContent = "Link copied."; }
    catch { $("progress").textContent = location.href; }
  });
  window.addEventListener("popstate", () => { readUrl(); load(); });
  window.addEventListener("pagehide", cancelJob);
  load();
}

init();
