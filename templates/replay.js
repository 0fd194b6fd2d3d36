"use strict";
(function () {
  const data = JSON.parse(document.getElementById("data").textContent);
  const steps = data.steps, images = data.images;
  // a pooled player state holds its lists and zones as indexes into data.parts
  const parted = new Set(data.parted);
  const pool = data.pool.map(flat => Object.fromEntries(Object.entries(flat).map(
    ([key, value]) => [key, parted.has(key) ? data.parts[value] : value])));
  const byLine = new Map();  // log line -> findings at it
  for (const f of data.findings) {
    const line = f.line === null ? (steps.length ? steps[steps.length - 1].line : 0) : f.line;
    if (!byLine.has(line)) byLine.set(line, []);
    byLine.get(line).push(f);
  }
  const stepOfLine = new Map(steps.map((s, i) => [s.line, i]));
  const jumps = [...byLine.entries()]
    .filter(([, fs]) => fs.some(f => f.list !== "warnings"))
    .map(([line]) => stepOfLine.get(line)).filter(i => i !== undefined).sort((a, b) => a - b);
  const el = (tag, cls, text) => {
    const node = document.createElement(tag);
    if (cls) node.className = cls;
    if (text !== undefined && text !== null) node.textContent = String(text);
    return node;
  };
  const log = document.getElementById("log"), slider = document.getElementById("slider");
  const rows = steps.map((s, i) => {
    const row = el("div");
    row.setAttribute("role", "listitem");
    row.dataset.step = i;
    const here = byLine.get(s.line) || [];
    for (const list of ["violations", "unverifiable", "warnings"]) {
      if (here.some(f => f.list === list)) { row.classList.add(list); break; }
    }
    row.append(el("span", "n", s.line), document.createTextNode(s.text));
    return row;
  });
  log.append(...rows);
  log.addEventListener("click", e => {
    const row = e.target.closest("[data-step]");
    if (row) show(Number(row.dataset.step));
  });
  slider.max = Math.max(0, steps.length - 1);
  let current = -1;

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
        const back = el("div", "card down" + (spent ? " spent" : ""), count(n) + " face down" + (spent ? " (spent)" : ""));
        out.push(back);
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
  function player(name, me, active, highlight) {
    const box = el("section", "player" + (name === active ? " active" : ""));
    box.dataset.player = name;
    const head = el("h2", null, name);
    const stats = el("span", "stats",
      `  food ${count(me.food)} · hand ${count(me.hand)} · deck ${count(me.deck)}` +
      (me.lost ? ` · lost (${me.lost})` : "") + (me.known ? "" : " · not seen from the start"));
    stats.dataset.food = me.food === null ? "" : me.food;
    stats.dataset.hand = me.hand === null ? "" : me.hand;
    head.append(stats);
    box.append(head);
    if (me.hand_cards.length) box.append(zone("hand shows", me.hand_cards.map(n => card(n, "", highlight))));
    box.append(zone("survivors", me.survivors.map(s => {
      const c = card(s.name, s.spent ? "spent" : "", highlight);
      const marks = [];
      if (s.wounds === null) marks.push("wounds ?"); else if (s.wounds) marks.push(s.wounds + (s.wounds > 1 ? " wounds" : " wound"));
      if (s.infected) marks.push("infected");
      if (marks.length) c.append(el("div", "tokens", marks.join(", ")));
      if (s.items.length) c.append(el("div", "items", "with " + s.items.join(", ")));
      return c;
    }).concat(me.items.map(i => card(i.name, i.spent ? "spent" : "", highlight)))));
    box.append(zone("resources", zombies(me.resource, highlight)));
    box.append(zone("combat", zombies(me.combat, highlight)));
    box.append(zone("discard", me.discard.map(n => card(n, "", highlight))));
    return box;
  }
  function show(index, center) {
    if (!steps.length) return;
    index = Math.max(0, Math.min(steps.length - 1, index));
    if (rows[current]) rows[current].classList.remove("current");
    current = index;
    const step = steps[index];
    rows[index].classList.add("current");
    rows[index].scrollIntoView({ block: center ? "center" : "nearest" });
    slider.value = index;
    const here = byLine.get(step.line) || [];
    const highlight = new Set(here.flatMap(f => f.cards));
    const findings = document.getElementById("findings");
    findings.replaceChildren(...here.map(f => {
      const box = el("div", "finding " + f.list);
      box.append(el("div", "head", `line ${step.line}: ${f.label}` + (f.rule ? ` ${f.rule}` : "") + ` (${f.kind})`));
      box.append(el("div", "sentence", f.sentence));
      if (f.quote) box.append(el("blockquote", "quote", `${f.rule}: “${f.quote}”`));
      return box;
    }));
    const board = document.getElementById("board");
    board.replaceChildren(...step.readings.flatMap(r => {
      const parts = [];
      if (r.assumes) parts.push(el("div", "assumes", "Reading: " + r.assumes));
      const whose = r.active ? `, ${r.active}'s turn` : "";
      parts.push(el("div", "turn", r.turn ? `Turn ${r.turn}${whose}, ${r.phase} phase` : "Setup"));
      for (const [name, at] of r.players) parts.push(player(name, pool[at], r.active, highlight));
      return parts;
    }));
    document.getElementById("where").textContent = `line ${step.line} (${index + 1} of ${steps.length})`;
    document.body.dataset.line = step.line;
  }
  function jump(forward) {
    const target = forward ? jumps.find(i => i > current) : [...jumps].reverse().find(i => i < current);
    if (target !== undefined) show(target, true);
  }
  document.getElementById("prev").onclick = () => show(current - 1);
  document.getElementById("next").onclick = () => show(current + 1);
  document.getElementById("nextFinding").onclick = () => jump(true);
  document.getElementById("prevFinding").onclick = () => jump(false);
  slider.addEventListener("input", () => show(Number(slider.value)));
  document.addEventListener("keydown", e => {
    if (e.target === slider && (e.key === "ArrowLeft" || e.key === "ArrowRight")) return;
    const keys = { ArrowRight: () => show(current + 1), ArrowDown: () => show(current + 1),
      ArrowLeft: () => show(current - 1), ArrowUp: () => show(current - 1),
      n: () => jump(true), p: () => jump(false), Home: () => show(0), End: () => show(steps.length - 1) };
    if (keys[e.key]) { e.preventDefault(); keys[e.key](); }
  });
  show(0);
  document.body.dataset.ready = "1";
})();
