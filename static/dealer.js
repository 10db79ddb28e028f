// pitboss: the dealer's screens, in plain JavaScript (no build step, nothing
// fetched but this service's own API). Without it every page still works as
// a plain form; the server is the authority either way.
//
// Showdown entry: cards in any notation (`qh qd 7c`, `10h`, `Q♥`, compact
// `qhqd7c`), coloured by suit as typed; a row that holds its 3 or 5 cards
// moves on by itself; every problem is shown next to its row and summed up
// beside Commit while the dealer types; the preview (fouls, settlement,
// jackpot triggers) comes from the preview endpoint; the typed hand is kept
// in this browser (localStorage) until it is committed, so a reload or a
// sign-in in between loses nothing.
(function () {
  "use strict";

  for (const button of document.querySelectorAll("[data-print]")) {
    button.hidden = false;
    button.addEventListener("click", () => window.print());
  }

  const STORE = "pitboss.entry.";
  const storeKey = (table, hand) => `${STORE}${table}.${hand}`;
  const storage = (() => {
    try { return window.localStorage; } catch (_) { return null; }
  })();

  // A sheet: the hand is settled (or voided); what was typed for it is done with.
  const sheet = document.getElementById("sheet");
  if (sheet && storage) storage.removeItem(storeKey(sheet.dataset.table, sheet.dataset.hand));

  // ---- cards, read the way the server reads them (src/web/dealer.rs) ----
  const RANKS = "23456789TJQKA";
  const SUIT_OF = { s: "s", h: "h", d: "d", c: "c", "♠": "s", "♤": "s", "♥": "h", "♡": "h", "♦": "d", "♢": "d", "♣": "c", "♧": "c" };
  const SYMBOL = { s: "♠", h: "♥", d: "♦", c: "♣" };

  // One token as a canonical card (`Qh`), or null.
  function readCard(token) {
    const chars = [...token];
    if (chars.length < 2) return null;
    const suit = SUIT_OF[chars[chars.length - 1].toLowerCase()];
    let rank = chars.slice(0, -1).join("").toUpperCase();
    if (rank === "10") rank = "T";
    if (!suit || rank.length !== 1 || !RANKS.includes(rank)) return null;
    return rank + suit;
  }

  // A run without separators (`qhqd7c`, `10h9s`) split into its cards, or
  // null when it does not read as cards from end to end.
  function splitRun(run) {
    const chars = [...run];
    const out = [];
    let i = 0;
    while (i < chars.length) {
      const n = chars[i] === "1" && chars[i + 1] === "0" ? 2 : RANKS.includes(chars[i].toUpperCase()) ? 1 : 0;
      const suit = chars[i + n];
      if (!n || suit === undefined || !SUIT_OF[suit.toLowerCase()]) return null;
      out.push(chars.slice(i, i + n + 1).join(""));
      i += n + 1;
    }
    return out;
  }

  // The tokens of typed text with where each starts: {text, start, card}.
  function tokens(text) {
    const out = [];
    const re = /[^\s,]+/g;
    let m;
    while ((m = re.exec(text))) {
      const run = m[0];
      const whole = readCard(run);
      const parts = whole ? null : splitRun(run);
      if (whole || !parts) {
        out.push({ text: run, start: m.index, card: whole });
        continue;
      }
      let at = m.index;
      for (const p of parts) {
        out.push({ text: p, start: at, card: readCard(p) });
        at += p.length;
      }
    }
    return out;
  }
  const spaced = (text) => tokens(text).map((t) => t.text).join(" ");
  const isRed = (card) => card[1] === "h" || card[1] === "d";

  // A card as shown in the preview: rank and suit symbol, in its colour.
  function cardSpan(card) {
    const span = document.createElement("span");
    span.className = `c ${isRed(card) ? "red" : "black"}`;
    span.textContent = card[0] + SYMBOL[card[1]];
    return span;
  }

  function entry(form) {
    const table = form.dataset.table, hand = form.dataset.hand;
    const api = `/api/v1/tables/${table}/hands/${hand}`;
    const sheetUrl = `/tables/${table}/hands/${hand}/sheet`;
    const copies = Number(form.dataset.copies || 1);
    const keyInput = form.querySelector("[name=key]");
    const commit = document.getElementById("commit");
    const commitLabel = commit.innerHTML; // the page's own markup
    const previewBox = document.getElementById("preview");
    const jackpotBox = document.getElementById("jackpot");
    const summary = document.getElementById("summary");
    const progress = document.getElementById("progress");
    const problemList = document.getElementById("problems");
    const restored = document.getElementById("restored");
    const scanNote = document.getElementById("scan-note");
    const saved = storeKey(table, hand);

    form.classList.add("live");
    for (const el of document.querySelectorAll(".js-only")) el.hidden = false;
    for (const el of document.querySelectorAll(".no-js")) el.hidden = true;
    const rows = Array.from(form.querySelectorAll(".row input"));
    const flow = rows.filter((i) => !i.classList.contains("discards"));
    const seatOf = (input) => input.closest(".seat-entry").dataset.seat;
    const where = (input) => `seat ${seatOf(input)} ${input.dataset.field}`;
    const playerOf = (seat) => form.querySelector(`.seat-entry[data-seat="${seat}"]`)?.dataset.player || "";
    const named = (seat) => (playerOf(seat) ? `${playerOf(seat)} (seat ${seat})` : `seat ${seat}`);
    const inputAt = (seat, row) => form.querySelector(`.seat-entry[data-seat="${seat}"] .row [data-field="${row}"]`);

    const left = new Set(); // rows the dealer has moved off: a short row there is a problem
    let attempted = false; // Commit was pressed: every short or empty row is a problem
    let serverProblems = []; // from the last preview or commit: {text, seat, row, link}
    let fouls = []; // from the last preview: {seat, text, legal}
    let checked = null; // the showdown (JSON) the shown preview is of
    let triggers = []; // jackpot triggers of that preview
    let acknowledged = null; // the showdown whose jackpot the dealer has seen and commits anyway
    let pending = null; // the preview on its way
    let generation = 0, timer = null, committing = false;

    // ---- the hand, kept in this browser until it is committed ----
    function fieldsOf() {
      const fields = {};
      let any = false;
      for (const el of form.elements) {
        if (!el.name || el.type === "hidden" || el.type === "submit") continue;
        fields[el.name] = el.type === "checkbox" ? el.checked : el.value;
        if (el.type !== "checkbox" && el.value.trim()) any = true;
      }
      return any ? fields : null;
    }
    function save() {
      if (!storage) return;
      const fields = fieldsOf();
      try {
        if (fields) storage.setItem(saved, JSON.stringify({ key: keyInput.value, at: Date.now(), fields }));
        else storage.removeItem(saved);
      } catch (_) { /* storage full or refused: the page still works */ }
    }
    const forget = () => storage && storage.removeItem(saved);
    function restore() {
      if (!storage) return;
      // Hands typed days ago and never committed are dropped.
      for (let i = storage.length - 1; i >= 0; i--) {
        const k = storage.key(i);
        if (!k || !k.startsWith(STORE) || k === saved) continue;
        try { if (Date.now() - JSON.parse(storage.getItem(k)).at > 3 * 86400e3) storage.removeItem(k); } catch (_) { storage.removeItem(k); }
      }
      let kept = null;
      try { kept = JSON.parse(storage.getItem(saved)); } catch (_) { forget(); }
      if (!kept || !kept.fields) return;
      let cards = 0;
      for (const [name, value] of Object.entries(kept.fields)) {
        const el = form.elements.namedItem(name);
        if (!el || el.type === "hidden") continue;
        if (el.type === "checkbox") el.checked = Boolean(value);
        else el.value = String(value);
        if (el.dataset.count || el.classList.contains("discards")) cards += tokens(el.value).length;
      }
      if (kept.key) keyInput.value = kept.key;
      const at = new Date(kept.at);
      restored.textContent = `Restored ${cards} card${cards === 1 ? "" : "s"} typed in this browser at ${at.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" })}.`;
      restored.hidden = false;
    }

    // ---- answers of the API; an ended session goes to sign-in and back ----
    function toSignIn() {
      save();
      window.location.assign(`/login?next=${encodeURIComponent(window.location.pathname)}&expired=1`);
    }
    async function send(url, body, headers) {
      let response;
      try {
        response = await fetch(url, body === undefined ? { credentials: "same-origin" } : {
          method: "POST",
          credentials: "same-origin",
          headers: Object.assign({ "Content-Type": "application/json" }, headers || {}),
          body,
        });
      } catch (_) {
        return { ok: false, status: 0, body: { error: "the service did not answer: check the network and try again" } };
      }
      if (response.status === 401) { toSignIn(); return null; }
      const text = await response.text();
      let parsed = null;
      try { parsed = JSON.parse(text); } catch (_) { parsed = { error: `the service answered ${response.status}` }; }
      return { ok: response.ok, status: response.status, body: parsed };
    }

    // An error of the service, placed by the seat and row it names (never
    // by reading its words); otherwise it goes to the summary beside Commit.
    function serverProblem(body, status) {
      const problem = { text: body.error || `the service answered ${status}`, seat: body.seat, row: body.row || body.field };
      if (status === 409) problem.link = { href: sheetUrl, text: `Open the sheet of hand #${hand}` };
      return problem;
    }

    // ---- checks while typing ----
    function validate() {
      const problems = [];
      const places = new Map();
      let cards = 0, needed = 0, complete = true;
      for (const input of rows) {
        const list = tokens(input.value);
        const count = Number(input.dataset.count || 0);
        for (const t of list) {
          if (!t.card) { problems.push({ text: `${where(input)}: "${t.text}" is not a card (a rank 2–9, T, J, Q, K, A and a suit s, h, d, c)`, at: [input] }); continue; }
          if (!places.has(t.card)) places.set(t.card, []);
          places.get(t.card).push(input);
        }
        if (!count) continue;
        needed += count;
        cards += Math.min(list.filter((t) => t.card).length, count);
        if (list.length !== count) complete = false;
        if (list.length > count) problems.push({ text: `${where(input)} has ${list.length} cards; it needs ${count}`, at: [input] });
        else if (list.length < count && (attempted || (left.has(input) && list.length > 0))) {
          problems.push({ text: list.length ? `${where(input)} has ${list.length} cards; it needs ${count}` : `${where(input)} is empty; it needs ${count} cards`, at: [input] });
        }
      }
      for (const [card, list] of places) {
        if (list.length <= copies) continue;
        const names = list.map(where);
        problems.push({
          text: copies === 1 ? `${card} appears twice: ${names[0]} and ${names.slice(1).join(" and ")}` : `${card} appears three times, but a double deck has two of each card: ${names.join(", ")}`,
          at: [...new Set(list)],
        });
      }
      return { problems, cards, needed, complete: complete && problems.length === 0 };
    }

    // The row holds its cards, every one a card not used elsewhere.
    function rowReady(input) {
      const list = tokens(input.value);
      if (list.length !== Number(input.dataset.count) || list.some((t) => !t.card)) return false;
      const used = usedCards(input);
      return list.every((t) => (used.get(t.card) || 0) < copies);
    }

    function usedCards(except) {
      const used = new Map();
      for (const input of rows) {
        if (input === except) continue;
        for (const t of tokens(input.value)) if (t.card) used.set(t.card, (used.get(t.card) || 0) + 1);
      }
      return used;
    }

    // The typed text drawn again behind its (transparent) input, each card
    // in its suit's colour and anything unreadable marked.
    function paint(input) {
      const mirror = input.previousElementSibling;
      if (!mirror) return;
      const text = input.value;
      const parts = [];
      let at = 0;
      for (const t of tokens(text)) {
        if (t.start > at) parts.push(text.slice(at, t.start));
        const span = document.createElement("span");
        span.textContent = t.text;
        span.className = t.card ? (isRed(t.card) ? "red" : "black") : "bad";
        parts.push(span);
        at = t.start + t.text.length;
      }
      if (at < text.length) parts.push(text.slice(at));
      const line = document.createElement("span");
      line.append(...parts);
      mirror.replaceChildren(line);
      mirror.scrollLeft = input.scrollLeft;
    }

    function render() {
      const v = validate();
      for (const row of form.querySelectorAll(".row")) {
        row.classList.remove("invalid");
        row.querySelector(".row-note").textContent = "";
        row.querySelector("input").removeAttribute("aria-invalid");
      }
      for (const note of form.querySelectorAll(".seat-note")) note.textContent = "";
      const note = (el, text) => { el.textContent = el.textContent ? `${el.textContent}; ${text}` : text; };
      const all = v.problems.map((p) => ({ text: p.text, inputs: p.at }));
      for (const p of serverProblems) {
        const input = p.seat != null && p.row ? inputAt(p.seat, p.row) : null;
        all.push({ text: p.text, inputs: input ? [input] : [], seat: input || p.seat == null ? undefined : p.seat, link: p.link });
      }
      for (const p of all) {
        for (const input of p.inputs) {
          const row = input.closest(".row");
          row.classList.add("invalid");
          input.setAttribute("aria-invalid", "true");
          note(row.querySelector(".row-note"), p.text);
        }
        if (p.seat !== undefined) {
          const seatNote = form.querySelector(`.seat-entry[data-seat="${p.seat}"] .seat-note`);
          if (seatNote) note(seatNote, p.text);
        }
      }
      for (const f of fouls) {
        const seatNote = form.querySelector(`.seat-entry[data-seat="${f.seat}"] .seat-note`);
        if (seatNote) note(seatNote, f.text);
      }
      const items = all.map((p) => {
        const li = document.createElement("li");
        li.textContent = p.text;
        if (p.inputs.length) li.addEventListener("click", () => p.inputs[0].focus());
        if (p.link) {
          const a = document.createElement("a");
          a.href = p.link.href;
          a.textContent = p.link.text;
          li.append(" ", a);
        }
        return li;
      });
      for (const f of fouls) {
        const li = document.createElement("li");
        li.className = "warn";
        li.textContent = `${named(f.seat)}: ${f.legal || f.text}`;
        items.push(li);
      }
      problemList.replaceChildren(...items);
      summary.classList.toggle("has-problems", all.length > 0);
      if (acknowledged !== null && !committing && acknowledged !== JSON.stringify(showdown())) {
        acknowledged = null;
        commit.innerHTML = commitLabel;
      }
      const ready = all.length === 0 && v.complete;
      commit.setAttribute("aria-disabled", ready ? "false" : "true");
      if (all.length) progress.textContent = `${all.length} to fix before the commit:`;
      else if (!v.complete) progress.textContent = `${v.cards} of ${v.needed} cards`;
      else if (pending || checked !== JSON.stringify(showdown())) progress.textContent = "All cards in: checking…";
      else progress.textContent = `All ${v.needed} cards checked${fouls.length ? " (a foul is scored as a foul)" : ""}: Commit settles the hand.`;
      return { v, all };
    }

    // ---- the showdown as the API takes it ----
    function showdown() {
      const seats = Array.from(form.querySelectorAll(".seat-entry")).map((fs) => {
        const seat = { seat: Number(fs.dataset.seat) };
        for (const input of fs.querySelectorAll(".row input")) {
          const text = spaced(input.value);
          if (text || !input.classList.contains("discards")) seat[input.dataset.field] = text;
        }
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

    function hidePreview() {
      previewBox.hidden = true;
      jackpotBox.hidden = true;
      checked = null;
      triggers = [];
      fouls = [];
    }

    // Checks the typed hand now; the preview follows when every row is whole.
    function check() {
      clearTimeout(timer);
      const mine = ++generation;
      const { v } = render();
      if (!v.complete) {
        hidePreview();
        pending = null;
        render();
        return Promise.resolve(false);
      }
      const body = JSON.stringify(showdown());
      if (body === checked && !serverProblems.length) { pending = null; render(); return Promise.resolve(true); }
      pending = (async () => {
        const answer = await send(`${api}/preview`, body);
        if (!answer || mine !== generation) return false;
        pending = null;
        if (!answer.ok) {
          hidePreview();
          serverProblems = [serverProblem(answer.body, answer.status)];
          render();
          return false;
        }
        serverProblems = [];
        showPreview(answer.body, body, mine);
        render();
        return true;
      })();
      render();
      return pending;
    }
    const schedule = (delay) => { clearTimeout(timer); timer = setTimeout(check, delay); };

    function showPreview(result, body, mine) {
      checked = body;
      fouls = [];
      const trs = result.seats.map((s) => {
        if (s.fouled && !s.surrendered && s.foul_reason) {
          fouls.push({ seat: s.seat, text: `Foul: ${s.foul_reason}` });
          explainFoul(s.seat, mine);
        }
        const tr = document.createElement("tr");
        if (s.fouled) tr.className = "fouled";
        const seatCell = document.createElement("td");
        seatCell.append(`${s.seat} `);
        const player = document.createElement("span");
        player.className = "player";
        player.textContent = playerOf(s.seat);
        seatCell.append(player);
        const cardsCell = document.createElement("td");
        cardsCell.className = "hand-cards";
        for (const input of form.querySelectorAll(`.seat-entry[data-seat="${s.seat}"] .row input:not(.discards)`)) {
          const row = document.createElement("span");
          row.className = "cardrow";
          for (const t of tokens(input.value)) if (t.card) row.append(cardSpan(t.card), " ");
          cardsCell.append(row, " ");
        }
        const what = s.surrendered ? "surrendered" : s.special ? `special: ${s.special}` : s.fouled ? "FOUL" : "set";
        const cells = [seatCell, cardsCell];
        for (const [text, cls] of [[what, ""], [s.net, `num ${String(s.net).startsWith("-") ? "neg" : "pos"}`], [s.stack_end, "num"]]) {
          const td = document.createElement("td");
          td.textContent = text;
          if (cls) td.className = cls;
          cells.push(td);
        }
        tr.append(...cells);
        return tr;
      });
      previewBox.querySelector("tbody").replaceChildren(...trs);
      previewBox.hidden = false;
      triggers = result.jackpot_triggers || [];
      jackpotBox.replaceChildren(...triggers.map((t) => {
        const p = document.createElement("p");
        const kind = String(t.kind).replace(/-/g, " ").toUpperCase();
        const pool = form.dataset.poolName
          ? `At commit the pool ${form.dataset.poolName} (${form.dataset.poolBalance}) is locked for them; it is paid after two floor sign-offs.`
          : "The table feeds no pool: nothing is locked.";
        const strong = document.createElement("strong");
        strong.textContent = `${kind} JACKPOT`;
        p.append(strong, `: ${named(t.loser)} loses to ${named(t.winner)}. ${pool}`);
        return p;
      }));
      jackpotBox.hidden = triggers.length === 0;
    }

    // A foul in words, with a legal setting of the same cards (the house way).
    async function explainFoul(seat, mine) {
      const rowsOf = {};
      for (const input of form.querySelectorAll(`.seat-entry[data-seat="${seat}"] .row input:not(.discards)`)) rowsOf[input.dataset.field] = spaced(input.value);
      const answer = await send("/api/v1/analyse", JSON.stringify({ ruleset: form.dataset.preset, ...rowsOf }));
      if (!answer || !answer.ok || mine !== generation) return;
      const foul = answer.body.rows && answer.body.rows.foul;
      const entry = fouls.find((f) => f.seat === seat);
      if (foul && entry) { entry.legal = `Foul: ${foul.message}`; render(); }
    }

    // ---- moving through the rows ----
    let lastRow = flow[0] || null;
    let justMoved = null; // the row focus moved to by itself, until typed in
    function moveOn(i, byItself) {
      const next = flow[i + 1];
      (next || commit).focus();
      justMoved = byItself ? next : null;
    }
    flow.forEach((input, i) => {
      input.addEventListener("keydown", (e) => {
        if (e.key !== "Enter") return;
        e.preventDefault();
        // The Enter a dealer types after a row that already moved on by itself.
        if (justMoved === input && !input.value.trim()) { justMoved = null; return; }
        left.add(input);
        render();
        moveOn(i, false);
      });
      input.addEventListener("input", (e) => {
        justMoved = null;
        serverProblems = [];
        const atEnd = input.selectionStart === input.value.length;
        if (e.inputType && e.inputType.startsWith("insert") && atEnd && rowReady(input)) {
          input.value = tokens(input.value).map((t) => t.card).join(" ");
          paint(input);
          left.add(input);
          // The last row stays: its Enter goes to Commit, and the next
          // Enter commits (a deliberate step, whichever way the dealer types).
          if (i < flow.length - 1) moveOn(i, true);
        }
      });
    });
    for (const input of rows) {
      input.addEventListener("input", () => { paint(input); save(); refreshPicker(); render(); schedule(250); });
      input.addEventListener("scroll", () => { input.previousElementSibling.scrollLeft = input.scrollLeft; });
      input.addEventListener("focus", () => (lastRow = input));
      input.addEventListener("blur", () => { if (input.value.trim()) { left.add(input); render(); } });
    }
    form.addEventListener("change", (e) => {
      if (e.target.matches(".row input")) return;
      save();
      schedule(50);
    });
    // A count typed into a number field (missed turns, early cards) is
    // checked as it is typed, not only when the field is left: the preview
    // showed the settlement without it until then.
    form.addEventListener("input", (e) => {
      if (e.target.type !== "number") return;
      save();
      schedule(250);
    });

    // ---- commit ----
    async function commitNow() {
      if (committing) return;
      attempted = true;
      committing = true;
      commit.textContent = "Checking…";
      const fine = await check();
      const { all } = render();
      if (!fine || all.length) {
        committing = false;
        commit.innerHTML = commitLabel;
        summary.classList.remove("flash");
        void summary.offsetWidth;
        summary.classList.add("flash");
        const first = form.querySelector(".row.invalid input");
        if (first) first.focus();
        return;
      }
      const body = JSON.stringify(showdown());
      // A jackpot locks the pool: the dealer commits it with a second press,
      // having seen it on the screen.
      if (triggers.length && acknowledged !== body) {
        acknowledged = body;
        committing = false;
        commit.textContent = "Commit with the jackpot";
        jackpotBox.scrollIntoView({ block: "nearest" });
        commit.focus();
        return;
      }
      commit.textContent = "Committing…";
      const answer = await send(`${api}/commit`, body, { "Idempotency-Key": keyInput.value });
      if (!answer) return;
      if (answer.ok) {
        forget();
        window.location.assign(sheetUrl);
        return;
      }
      serverProblems = [serverProblem(answer.body, answer.status)];
      committing = false;
      commit.innerHTML = commitLabel;
      render();
      commit.focus();
    }
    form.addEventListener("submit", (e) => {
      e.preventDefault();
      // Only the Commit button commits: Enter elsewhere, or the (hidden)
      // "Check and preview" button, only checks.
      if (e.submitter === commit) commitNow();
      else check();
    });

    // Back to a page of a hand that was settled meanwhile (the browser's
    // history): said at once, and nothing typed here is kept.
    window.addEventListener("pageshow", async (e) => {
      if (!e.persisted) return;
      // A new attempt: its own key (the server still refuses other cards
      // for a committed hand, and answers the same cards with its result).
      keyInput.value = `entry-${table}-${hand}-${Date.now().toString(16)}-${Math.random().toString(16).slice(2)}`;
      committing = false;
      commit.innerHTML = commitLabel;
      const answer = await send(api);
      if (answer && answer.ok && answer.body.status !== "open") {
        forget();
        serverProblems = [{ text: `Hand #${hand} is already ${answer.body.status}: a floor supervisor can void it.`, link: { href: sheetUrl, text: `Open the sheet of hand #${hand}` } }];
        render();
      }
    });

    // ---- the bank's hand by the house way (banker, malayan) ----
    for (const button of form.querySelectorAll("button.house-way")) {
      button.addEventListener("click", async () => {
        const fs = form.querySelector(`.seat-entry[data-seat="${button.dataset.seat}"]`);
        const cards = Array.from(fs.querySelectorAll(".row input:not(.discards)")).map((i) => spaced(i.value)).join(" ");
        const answer = await send("/api/v1/analyse", JSON.stringify({ ruleset: form.dataset.preset, cards }));
        if (!answer) return;
        if (!answer.ok) { serverProblems = [serverProblem(answer.body, answer.status)]; render(); return; }
        for (const row of ["front", "middle", "back"]) {
          const input = fs.querySelector(`[data-field=${row}]`);
          input.value = answer.body.house_setting[row];
          paint(input);
        }
        save();
        check();
      });
    }

    // ---- scanner box and card picker ----
    // Adds a card to `target` (or the next row with room); a card already
    // on the table is flagged and not added.
    const slotsLeft = (input) => Number(input.dataset.count) - tokens(input.value).length;
    function placeCard(text, target) {
      const card = readCard(text);
      if (!card) { scanNote.textContent = `"${text}" is not a card`; scanNote.className = "scan-note flag"; return false; }
      if ((usedCards(null).get(card) || 0) >= copies) {
        scanNote.textContent = `${card} is already on the table: scanned twice?`;
        scanNote.className = "scan-note flag";
        return false;
      }
      const from = target ? flow.indexOf(target) : 0;
      const input = [...flow.slice(Math.max(from, 0)), ...flow].find((i) => slotsLeft(i) > 0);
      if (!input) { scanNote.textContent = "every row is full"; scanNote.className = "scan-note flag"; return false; }
      input.value = (input.value.trim() ? input.value.trim() + " " : "") + card;
      paint(input);
      if (slotsLeft(input) === 0 && input === lastRow) lastRow = flow[flow.indexOf(input) + 1] || input;
      scanNote.textContent = `${card} → ${where(input)}`;
      scanNote.className = "scan-note";
      save();
      refreshPicker();
      render();
      schedule(150);
      return true;
    }

    const scan = document.getElementById("scan");
    if (scan) scan.addEventListener("keydown", (e) => {
      if (e.key !== "Enter") return;
      e.preventDefault();
      e.stopPropagation();
      for (const t of tokens(scan.value)) placeCard(t.text, null);
      scan.value = "";
    });

    // The picker: 52 cards, greyed once used anywhere at the table; a card
    // goes to the row last entered.
    const picker = document.getElementById("picker");
    function refreshPicker() {
      if (!picker) return;
      const used = usedCards(null);
      for (const b of picker.querySelectorAll("button")) b.disabled = (used.get(b.dataset.card) || 0) >= copies;
    }
    if (picker) {
      for (const suit of "shdc") for (const rank of [...RANKS].reverse()) {
        const b = document.createElement("button");
        b.type = "button";
        b.dataset.card = rank + suit;
        b.className = `pick ${isRed(rank + suit) ? "red" : "black"}`;
        b.textContent = rank + SYMBOL[suit];
        b.addEventListener("click", () => placeCard(b.dataset.card, lastRow));
        picker.appendChild(b);
      }
    }

    // Cards a shoe or RFID table posted to the scan endpoint join their rows.
    async function pullScans() {
      const answer = await send(`${api}/scans`);
      if (!answer || !answer.ok || !Array.isArray(answer.body)) return;
      const used = usedCards(null);
      let added = false;
      for (const s of answer.body) {
        if ((used.get(s.card) || 0) >= copies) continue;
        const input = inputAt(s.seat, s.row);
        if (!input || (input.dataset.count && slotsLeft(input) <= 0)) continue;
        input.value = (input.value.trim() ? input.value.trim() + " " : "") + s.card;
        used.set(s.card, (used.get(s.card) || 0) + 1);
        paint(input);
        added = true;
      }
      if (added) { save(); refreshPicker(); render(); schedule(50); }
    }

    restore();
    rows.forEach(paint);
    refreshPicker();
    check();
    if (form.dataset.closed) {
      serverProblems = [{ text: document.getElementById("closed")?.textContent || `hand #${hand} is closed` }];
      render();
    }
    pullScans();
    setInterval(pullScans, 1500);
    const first = flow.find((i) => !i.value.trim()) || flow[0];
    if (first) first.focus();
  }

  const form = document.getElementById("entry");
  if (form) entry(form);
})();
