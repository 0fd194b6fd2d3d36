"use strict";
(function () {
  const data = JSON.parse(document.getElementById("data").textContent);
  // a step: [line, text, readings (null: as the step before), changes [reading, player, key, value]]
  const steps = data.steps, images = data.images, KEY = data.keyframe;
  const LINE = 0, TEXT = 1, READINGS = 2, CHANGES = 3;
  const JUMP_LISTS = new Set(["violations", "unverifiable", "unparsed"]);
  const byLine = new Map();  // log line -> findings at it
  const lastLine = steps.length ? steps[steps.length - 1][LINE] : 0;
  for (const f of data.findings) {
    const line = f.line === null ? lastLine : f.line;
    if (!byLine.has(line)) byLine.set(line, []);
    byLine.get(line).push(f);
  }
  const lineOfStep = i => steps[i][LINE];
  function stepAtLine(line) {  // the last step at or before a log line (binary search)
    let low = 0, high = steps.length - 1, found = 0;
    while (low <= high) {
      const mid = (low + high) >> 1;
      if (lineOfStep(mid) <= line) { found = mid; low = mid + 1; } else high = mid - 1;
    }
    return found;
  }
  const jumps = [...byLine.entries()]
    .filter(([, fs]) => fs.some(f => JUMP_LISTS.has(f.list)))
    .map(([line]) => stepAtLine(line)).sort((a, b) => a - b);
  const el = (tag, cls, text) => {
    const node = document.createElement(tag);
    if (cls) node.className = cls;
    if (text !== undefined && text !== null) node.textContent = String(text);
    return node;
  };
  const marks = {};  // log line -> the class of its row
  for (const [line, fs] of byLine) {
    const list = ["violations", "unverifiable", "unparsed", "warnings"].find(l => fs.some(f => f.list === l));
    if (list) marks[line] = list;
  }

  // -- the log: only the rows in view are drawn ---------------------------------------------
  const log = document.getElementById("log"), rows = document.getElementById("rows");
  const slider = document.getElementById("slider");
  const ROW = parseFloat(getComputedStyle(document.documentElement).getPropertyValue("--row")) || 18;
  rows.style.height = steps.length * ROW + "px";
  let current = -1, drawn = "";
  function drawRows() {
    const first = Math.max(0, Math.floor(log.scrollTop / ROW) - 10);
    const last = Math.min(steps.length, Math.ceil((log.scrollTop + log.clientHeight) / ROW) + 10);
    const key = first + ":" + last;
    if (key === drawn) {  // the same rows: only the current one changes
      for (const row of rows.children) row.classList.toggle("current", Number(row.dataset.step) === current);
      return;
    }
    drawn = key;
    const out = [];
    for (let i = first; i < last; i++) {
      const row = el("div", marks[lineOfStep(i)] || "");
      if (i === current) row.classList.add("current");
      row.setAttribute("role", "listitem");
      row.dataset.step = i;
      row.style.top = i * ROW + "px";
      row.title = steps[i][TEXT];
      row.append(el("span", "n", lineOfStep(i)), document.createTextNode(steps[i][TEXT]));
      out.push(row);
    }
    rows.replaceChildren(...out);
  }
  log.addEventListener("scroll", drawRows);
  log.addEventListener("click", e => {
    const row = e.target.closest("[data-step]");
    if (row) show(Number(row.dataset.step));
  });
  function reveal(index, center) {
    const top = index * ROW, view = log.clientHeight;
    if (center) log.scrollTop = Math.max(0, top - view / 2);
    else if (top < log.scrollTop) log.scrollTop = top;
    else if (top + ROW > log.scrollTop + view) log.scrollTop = top + ROW - view;
  }
  slider.max = Math.max(0, steps.length - 1);

  // -- the timeline: a band per turn, a mark per finding ----------------------------------------
  const timeline = document.getElementById("timeline");
  const share = i => (steps.length ? (100 * i) / steps.length : 0) + "%";
  const turns = data.turns;
  const bands = turns.length > 600 ? Math.ceil(turns.length / 600) : 1;  // turns per band
  for (let t = 0; t < turns.length; t += bands) {
    const [start, number, active] = turns[t];
    const end = t + bands < turns.length ? turns[t + bands][0] : steps.length;
    const band = el("div", "turn");
    band.style.left = share(start);
    band.style.width = share(end - start);
    band.title = number ? `Turn ${number}` + (active ? `, ${active}` : "") : "Setup";
    band.dataset.step = start;
    timeline.append(band);
  }
  for (const [line, list] of Object.entries(marks)) {
    if (list === "warnings") continue;
    const mark = el("div", "mark " + list);
    const at = stepAtLine(Number(line));
    mark.style.left = share(at + 0.5);
    mark.dataset.step = at;
    mark.title = `line ${line}: ${byLine.get(Number(line)).map(f => f.label).join(", ")}`;
    timeline.append(mark);
  }
  const now = el("div", "now");
  timeline.append(now);
  timeline.addEventListener("click", e => {
    const mark = e.target.closest(".mark");
    if (mark) { show(Number(mark.dataset.step), true); return; }
    const box = timeline.getBoundingClientRect();
    show(Math.floor(((e.clientX - box.left) / box.width) * steps.length), true);
  });

  // -- the board at a step: built from the last whole step before it -------------------------------
  const up = ([name, spent, generic]) => ({ name, spent, generic });
  function unpacked(key, value) {  // a part of a player's table as page.py packed it
    if (key === "survivors") return value.map(([name, wounds, infected, spent, items]) => ({ name, wounds, infected, spent, items }));
    if (key === "items") return value.map(([name, spent]) => ({ name, spent }));
    if (key === "resource" || key === "combat") {
      const [ready, spent, faceUp, maybe, unseen] = value;
      return { face_down_ready: ready, face_down_spent: spent, face_up: faceUp.map(up), maybe: maybe.map(up), unseen };
    }
    return value;
  }
  function tablesAt(index) {
    const start = index - (index % KEY);
    let readings = [];
    const parts = [];  // per reading: player -> his table
    for (let i = start; i <= index; i++) {
      const step = steps[i];
      if (step[READINGS]) readings = step[READINGS];
      for (const [r, name, key, value] of step[CHANGES]) {
        const players = parts[r] || (parts[r] = new Map());
        if (!players.has(name)) players.set(name, {});
        players.get(name)[key] = unpacked(key, value);
      }
    }
    return readings.map(([assumes, turn, phase, active, names], r) => ({
      assumes, turn, phase, active, players: names.map(n => [n, parts[r].get(n)]),
    }));
  }
  function card(name, classes, highlight) {
    const node = el("div", "card " + classes);
    node.dataset.name = name;
    if (highlight.has(name)) node.classList.add("hl");
    if (Object.hasOwn(images, name)) {  // a card called __proto__ or constructor is no image
      const img = el("img");
      img.alt = name;
      img.src = images[name];
      node.append(img);
    } else {
      node.append(el("div", "name", name));
    }
    return node;
  }
  function count(value) {
    if (value === null) return "?";
    return typeof value === "object" ? value.min + "–" + value.max : String(value);
  }
  function zone(label, cards) {
    const row = el("div", "zone");
    row.append(el("div", "label", label));
    if (cards.length) row.append(...cards); else row.append(el("span", "empty", "empty"));
    return row;
  }
  function zombies(z, highlight) {
    const out = [];
    for (const [key, spent] of [["face_down_ready", false], ["face_down_spent", true]]) {
      const n = z[key];
      if (n && (typeof n === "object" || n > 0)) {
        out.push(el("div", "card down" + (spent ? " spent" : ""), count(n) + " face down" + (spent ? " (spent)" : "")));
      }
    }
    for (const up of z.face_up) out.push(card(up.name, up.spent ? "spent" : "", highlight));
    for (const up of z.maybe) {
      const c = card(up.name, "maybe" + (up.spent ? " spent" : ""), highlight);
      c.title = "in some readings of the log";
      out.push(c);
    }
    if (z.unseen) out.push(el("span", "empty", "+ cards the log has not shown?"));
    return out;
  }
  function pile(label, names, highlight) {
    const row = el("div", "zone");
    row.append(el("div", "label", label));
    if (!names.length) { row.append(el("span", "empty", "empty")); return row; }
    const marked = names.filter(n => highlight.has(n));
    const box = el("details", "pile");
    box.append(el("summary", null, `${names.length} · top: ${names[names.length - 1]}`));
    box.append(...names.map(n => card(n, "", highlight)));
    if (marked.length) box.open = true;
    row.append(box);
    return row;
  }
  function player(name, me, active, highlight) {
    const box = el("section", "player" + (name === active ? " active" : ""));
    box.dataset.player = name;
    const head = el("h2", null, name);
    if (name === active) head.append(el("span", "badge", "active"));
    const stats = el("span", "stats",
      `food ${count(me.food)} · hand ${count(me.hand)} · deck ${count(me.deck)} · discard ${me.discard.length}` +
      (me.lost ? ` · lost (${me.lost})` : "") + (me.known ? "" : " · not seen from the start"));
    stats.dataset.food = me.food === null ? "" : me.food;
    stats.dataset.hand = me.hand === null ? "" : me.hand;
    head.append(stats);
    box.append(head);
    if (me.hand_cards.length) box.append(zone("hand shows", me.hand_cards.map(n => card(n, "", highlight))));
    box.append(zone("survivors", me.survivors.map(s => {
      const c = card(s.name, s.spent ? "spent" : "", highlight);
      const tokens = [];
      if (s.wounds === null) tokens.push("wounds ?"); else if (s.wounds) tokens.push(s.wounds + (s.wounds > 1 ? " wounds" : " wound"));
      if (s.infected) tokens.push("infected");
      if (tokens.length) c.append(el("div", "tokens", tokens.join(", ")));
      if (s.items.length) c.append(el("div", "items", "with " + s.items.join(", ")));
      return c;
    }).concat(me.items.map(i => card(i.name, i.spent ? "spent" : "", highlight)))));
    box.append(zone("resources", zombies(me.resource, highlight)));
    box.append(zone("combat", zombies(me.combat, highlight)));
    box.append(pile("discard", me.discard, highlight));
    if (me.removed.length) box.append(pile("removed", me.removed, highlight));
    return box;
  }
  function finding(f, line) {
    const box = el("div", "finding " + f.list);
    box.append(el("div", "head", `line ${line}: ${f.label}` + (f.rule ? ` ${f.rule}` : "") + ` (${f.kind})`));
    box.append(el("div", "sentence", f.sentence));
    if (f.follows) box.append(el("div", "cause", `follows from line ${f.follows}`));
    if (f.quote) box.append(el("blockquote", "quote", `${f.rule}: “${f.quote}”`));
    return box;
  }
  const clock = r => r.turn ? `Turn ${r.turn}` + (r.active ? `, ${r.active}'s turn` : "") + `, ${r.phase} phase` : "Setup";
  function board(readings, highlight) {
    // every player side by side; a player the readings agree on is drawn once ("in both
    // readings"), one they differ on once per reading, each headed by its reading
    const [first, ...others] = readings;
    const sameClock = others.every(r => clock(r) === clock(first));
    const out = [el("div", "turn-head", sameClock ? clock(first) : "The readings differ on the turn")];
    if (others.length) {
      readings.forEach((r, i) => {
        const box = el("details", "reading assumes");
        box.append(el("summary", null, `Reading ${i + 1} of ${readings.length}` + (sameClock ? "" : `: ${clock(r)}`)));
        box.append(el("div", null, r.assumes || "the log as written"));
        out.push(box);
      });
    }
    const names = [...new Set(readings.flatMap(r => r.players.map(([n]) => n)))];
    const grid = el("div", "players");
    for (const name of names) {
      const held = readings.map(r => (r.players.find(([n]) => n === name) || [])[1]);
      const text = held.map(me => JSON.stringify(me));
      if (text.every(t => t === text[0]) && held[0]) {
        const box = player(name, held[0], sameClock ? first.active : null, highlight);
        if (others.length) box.querySelector("h2").append(el("span", "stats", readings.length === 2 ? "in both readings" : "in every reading"));
        grid.append(box);
        continue;
      }
      const cell = el("div", "cell");
      held.forEach((me, i) => {
        if (!me) return;
        cell.append(el("div", "assumes", `Reading ${i + 1}`));
        cell.append(player(name, me, readings[i].active, highlight));
      });
      grid.append(cell);
    }
    out.push(grid);
    return out;
  }
  function show(index, center) {
    if (!steps.length) return;
    index = Math.max(0, Math.min(steps.length - 1, index));
    current = index;
    const line = lineOfStep(index);
    reveal(index, center);
    drawRows();
    slider.value = index;
    now.style.left = share(index);
    const here = byLine.get(line) || [];
    const highlight = new Set(here.flatMap(f => f.cards));
    document.getElementById("line").textContent = `${line}: ${steps[index][TEXT]}`;
    document.getElementById("findings").replaceChildren(...here.map(f => finding(f, line)));
    document.getElementById("board").replaceChildren(...board(tablesAt(index), highlight));
    document.getElementById("where").textContent = `line ${line} (${index + 1} of ${steps.length})`;
    document.body.dataset.line = line;
    addressLater(line);
  }
  let address = 0;
  function addressLater(line) {  // the address follows the line once stepping pauses (it is slow)
    clearTimeout(address);
    address = setTimeout(() => {
      try { history.replaceState(null, "", "#L" + line); } catch (error) { /* a sandboxed page */ }
    }, 150);
  }
  function jump(forward) {
    const target = forward ? jumps.find(i => i > current) : [...jumps].reverse().find(i => i < current);
    if (target !== undefined) show(target, true);
  }
  function fromHash() {
    const asked = /^#L(\d+)$/.exec(location.hash);
    return asked ? stepAtLine(Number(asked[1])) : null;
  }
  document.getElementById("prev").onclick = () => show(current - 1);
  document.getElementById("next").onclick = () => show(current + 1);
  document.getElementById("nextFinding").onclick = () => jump(true);
  document.getElementById("prevFinding").onclick = () => jump(false);
  slider.addEventListener("input", () => show(Number(slider.value)));
  window.addEventListener("hashchange", () => {
    const asked = fromHash();
    if (asked !== null && asked !== current) show(asked, true);
  });
  document.addEventListener("keydown", e => {
    if (e.target === slider && (e.key === "ArrowLeft" || e.key === "ArrowRight")) return;
    const keys = { ArrowRight: () => show(current + 1), ArrowDown: () => show(current + 1),
      ArrowLeft: () => show(current - 1), ArrowUp: () => show(current - 1),
      n: () => jump(true), p: () => jump(false), Home: () => show(0), End: () => show(steps.length - 1) };
    if (keys[e.key]) { e.preventDefault(); keys[e.key](); }
  });
  const asked = fromHash();
  show(asked === null ? 0 : asked, asked !== null);
  document.body.dataset.ready = "1";
})();
