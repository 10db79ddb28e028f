// The dealer's screens. Showdown entry: live validation through the preview endpoint, Enter and
// Tab move row by row, commit once with an idempotency key. The server is the
// authority; this only gives feedback early.
(function () {
  "use strict";
  const form = document.getElementById("entry");
  if (!form) return;
  const api = `/api/v1/tables/${form.dataset.table}/hands/${form.dataset.hand}`;
  const key = form.querySelector("[name=key]").value;
  const problem = document.getElementById("problem");
  const commit = document.getElementById("commit");
  commit.disabled = true; // until the live check passes
  const preview = document.getElementById("preview");
  // With JavaScript: live checks replace the preview button; the tools appear.
  for (const el of document.querySelectorAll(".js-only")) el.hidden = false;
  for (const el of document.querySelectorAll(".no-js")) el.hidden = true;
  const inputs = Array.from(form.querySelectorAll(".row input:not(.discards)"));
  let timer = null, generation = 0;

  function showdown() {
    const seats = Array.from(form.querySelectorAll(".seat-entry")).map((fs) => {
      const seat = { seat: Number(fs.dataset.seat) };
      for (const input of fs.querySelectorAll(".row input")) if (input.value.trim() || !input.classList.contains("discards")) seat[input.dataset.field] = input.value.trim();
      if (fs.querySelector("[data-field=surrender]").checked) seat.surrender = true;
      const claim = fs.querySelector("[data-field=claim]");
      if (claim && claim.value) seat.claim = claim.value;
      const aces = fs.querySelector("[data-field=aces_bet]");
      if (aces && !aces.checked) seat.aces_bet = false;
      const penalties = [];
      const times = (field) => Math.min(13, Math.max(0, parseInt(fs.querySelector(`[data-field=${field}]`)?.value || "0", 10) || 0));
      for (let i = 0; i < times("early_cards"); i++) penalties.push("early-card");
      for (let i = 0; i < times("missed_turns"); i++) penalties.push("missed-turn");
      if (fs.querySelector("[data-field=dead_hand]")?.checked) penalties.push("dead-hand");
      if (penalties.length) seat.penalties = penalties;
      return seat;
    });
    return { seats };
  }

  function clearNotes() {
    form.querySelectorAll(".row-note, .seat-note").forEach((n) => (n.textContent = ""));
    form.querySelectorAll(".invalid").forEach((n) => n.classList.remove("invalid"));
    problem.hidden = true;
  }

  // "seat 2 middle has 4 cards; …", "\"Qx\" … seat 3 front: …", "Qh appears twice: seat 1 front and seat 3 middle"
  function place(message) {
    const m = message.match(/seat (\d+) (front|middle|back|discards)/g);
    if (m) {
      const [, seat, row] = m[m.length - 1].match(/seat (\d+) (front|middle|back|discards)/);
      const input = form.querySelector(`.seat-entry[data-seat="${seat}"] [data-field=${row}]`);
      if (input) {
        input.classList.add("invalid");
        input.parentElement.querySelector(".row-note").textContent = message;
        return;
      }
    }
    problem.textContent = message;
    problem.hidden = false;
  }

  function incomplete() {
    return inputs.some((i) => i.value.trim().split(/[\s,]+/).filter(Boolean).length !== Number(i.dataset.count));
  }

  async function check() {
    const mine = ++generation;
    commit.disabled = true;
    clearNotes();
    if (incomplete()) {
      for (const i of inputs) {
        const n = i.value.trim().split(/[\s,]+/).filter(Boolean).length;
        if (n > Number(i.dataset.count)) place(`seat ${i.closest(".seat-entry").dataset.seat} ${i.dataset.field} has ${n} cards; it needs ${i.dataset.count}`);
      }
      preview.hidden = true;
      return;
    }
    const response = await fetch(`${api}/preview`, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(showdown()) });
    if (mine !== generation) return;
    const body = await response.json();
    if (!response.ok) { place(body.error); preview.hidden = true; return; }
    const rows = body.seats.map((s) => {
      const what = s.surrendered ? "surrendered" : s.special ? `special: ${s.special}` : s.fouled ? `fouled: ${s.foul_reason}` : "set";
      if (s.fouled && s.foul_reason && !s.surrendered) explainFoul(s.seat, mine);
      const tr = document.createElement("tr");
      for (const [text, cls] of [[String(s.seat), ""], [what, s.fouled ? "neg" : ""], [s.net, "num"], [s.stack_end, "num"]]) {
        const td = document.createElement("td");
        td.textContent = text;
        if (cls) td.className = cls;
        tr.appendChild(td);
      }
      return tr;
    });
    preview.querySelector("tbody").replaceChildren(...rows);
    preview.hidden = false;
    commit.disabled = false;
  }

  // The seat's rows as the analyse endpoint takes them.
  function seatRows(seat) {
    const fs = form.querySelector(`.seat-entry[data-seat="${seat}"]`);
    const rows = {};
    for (const input of fs.querySelectorAll(".row input:not(.discards)")) rows[input.dataset.field] = input.value.trim();
    return { fs, rows };
  }

  // A foul in words, with a legal setting of the same cards (the house way).
  async function explainFoul(seat, mine) {
    const { fs, rows } = seatRows(seat);
    const response = await fetch("/api/v1/analyse", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ ruleset: form.dataset.preset, ...rows }) });
    if (mine !== generation || !response.ok) return;
    const analysis = await response.json();
    const foul = analysis.rows && analysis.rows.foul;
    if (foul) fs.querySelector(".seat-note").textContent = `Foul: ${foul.message}`;
  }

  // Banker presets: the bank's 13 cards, typed in any rows, set by the house way.
  for (const button of form.querySelectorAll("button.house-way")) {
    button.addEventListener("click", async () => {
      const { fs, rows } = seatRows(button.dataset.seat);
      const cards = [rows.front, rows.middle, rows.back].join(" ");
      const response = await fetch("/api/v1/analyse", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ ruleset: form.dataset.preset, cards }) });
      const body = await response.json();
      if (!response.ok) { fs.querySelector(".seat-note").textContent = body.error; return; }
      for (const row of ["front", "middle", "back"]) fs.querySelector(`[data-field=${row}]`).value = body.house_setting[row];
      check();
    });
  }

  // ---- cards in the screen's own notation (mirrors the server's reading) ----
  const RANKS = "23456789TJQKA", SUITS = "shdc", SYMBOLS = { "♠": "s", "♥": "h", "♦": "d", "♣": "c" };
  function canonical(token) {
    let t = token.trim();
    if (!t) return null;
    const last = [...t].pop();
    const suit = (SYMBOLS[last] || last).toLowerCase();
    let rank = t.slice(0, t.length - last.length).toUpperCase();
    if (rank === "10") rank = "T";
    if (rank.length !== 1 || !RANKS.includes(rank) || !SUITS.includes(suit)) return null;
    return rank + suit;
  }
  const tokens = (text) => text.split(/[\s,]+/).filter(Boolean);
  function usedCards() {
    const used = new Set();
    for (const input of form.querySelectorAll(".row input")) for (const t of tokens(input.value)) { const c = canonical(t); if (c) used.add(c); }
    return used;
  }
  const slotsLeft = (input) => Number(input.dataset.count) - tokens(input.value).length;

  // Adds a card to `target` (or the next row with room, seat by seat); a card
  // already on the table is flagged and not added.
  function placeCard(card, target) {
    const note = document.getElementById("scan-note");
    const c = canonical(card);
    if (!c) { note.textContent = `"${card}" is not a card`; return false; }
    if (usedCards().has(c)) { note.textContent = `${c} is already on the table: scanned twice?`; note.className = "flag"; return false; }
    const input = target && slotsLeft(target) > 0 ? target : inputs.find((i) => slotsLeft(i) > 0);
    if (!input) { note.textContent = "every row is full"; return false; }
    input.value = (input.value.trim() ? input.value.trim() + " " : "") + c;
    note.textContent = `${c} → seat ${input.closest(".seat-entry").dataset.seat} ${input.dataset.field}`;
    note.className = "";
    refreshPicker();
    clearTimeout(timer); timer = setTimeout(check, 150);
    return true;
  }

  const scan = document.getElementById("scan");
  if (scan) scan.addEventListener("keydown", (e) => {
    if (e.key !== "Enter") return;
    e.preventDefault();
    e.stopPropagation();
    for (const t of tokens(scan.value)) placeCard(t, null);
    scan.value = "";
  });

  // The picker: 52 cards, greyed once used anywhere at the table.
  const picker = document.getElementById("picker");
  let lastRow = null;
  inputs.forEach((i) => i.addEventListener("focus", () => (lastRow = i)));
  function refreshPicker() {
    if (!picker) return;
    const used = usedCards();
    for (const b of picker.querySelectorAll("button")) b.disabled = used.has(b.dataset.card);
  }
  if (picker) {
    for (const suit of SUITS) for (const rank of [...RANKS].reverse()) {
      const b = document.createElement("button");
      b.type = "button";
      b.dataset.card = rank + suit;
      b.className = `pick ${suit}`;
      b.textContent = rank + { s: "♠", h: "♥", d: "♦", c: "♣" }[suit];
      b.addEventListener("click", () => placeCard(b.dataset.card, lastRow));
      picker.appendChild(b);
    }
    refreshPicker();
  }

  // Cards a shoe or RFID table posted to the scan endpoint join their rows.
  async function pullScans() {
    const response = await fetch(`${api}/scans`);
    if (!response.ok) return;
    const used = usedCards();
    let added = false;
    for (const scan of await response.json()) {
      if (used.has(scan.card)) continue;
      const input = form.querySelector(`.seat-entry[data-seat="${scan.seat}"] [data-field=${scan.row}]`);
      if (!input || slotsLeft(input) <= 0) continue;
      input.value = (input.value.trim() ? input.value.trim() + " " : "") + scan.card;
      used.add(scan.card);
      added = true;
    }
    if (added) { refreshPicker(); clearTimeout(timer); timer = setTimeout(check, 50); }
  }
  pullScans();
  setInterval(pullScans, 1500);

  form.addEventListener("input", () => { refreshPicker(); });
  form.addEventListener("input", () => { clearTimeout(timer); timer = setTimeout(check, 250); });
  form.addEventListener("change", () => { clearTimeout(timer); timer = setTimeout(check, 50); });
  inputs.forEach((input, i) => input.addEventListener("keydown", (e) => {
    if (e.key === "Enter") {
      e.preventDefault();
      const next = inputs[i + 1];
      if (next) next.focus(); else if (!commit.disabled) commit.focus();
    }
  }));
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    commit.disabled = true;
    const response = await fetch(`${api}/commit`, { method: "POST", headers: { "Content-Type": "application/json", "Idempotency-Key": key }, body: JSON.stringify(showdown()) });
    const body = await response.json();
    if (response.ok) { window.location = `/tables/${form.dataset.table}/hands/${form.dataset.hand}/sheet`; return; }
    place(body.error);
    commit.disabled = false;
  });
  if (inputs[0]) inputs[0].focus();
})();
