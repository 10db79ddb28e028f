// The live pit board (/floor/board): listens to /api/v1/board/events and
// redraws every table's card from each board the server sends, with the same
// facts and words as the page the server rendered; the times since a hand
// started and since the last commit keep counting between events. A note
// being typed in a table's form is kept. Without JavaScript the page reads
// itself again every 15 seconds instead (its <noscript> refresh).
"use strict";
(() => {
  const list = document.getElementById("board");
  if (!list || !window.EventSource) return;
  const live = document.getElementById("live");
  const at = document.getElementById("board-at");
  const empty = document.getElementById("board-empty");
  const tz = list.dataset.tz || "UTC";
  const canChange = list.dataset.canChange === "true";
  const csrf = list.dataset.csrf || "";
  let board = null; // the latest board the server sent
  let receivedAt = 0; // when it came, by this browser's clock

  const parts = (iso, options) => {
    const format = new Intl.DateTimeFormat("en-GB", Object.assign({ timeZone: tz, hourCycle: "h23" }, options));
    const out = {};
    format.formatToParts(new Date(iso)).forEach((p) => { out[p.type] = p.value; });
    return out;
  };
  const when = (iso) => {
    const p = parts(iso, {
      year: "numeric", month: "2-digit", day: "2-digit",
      hour: "2-digit", minute: "2-digit", second: "2-digit", timeZoneName: "short",
    });
    return `${p.year}-${p.month}-${p.day} ${p.hour}:${p.minute}:${p.second} ${p.timeZoneName}`;
  };
  const time = (iso) => {
    const p = parts(iso, { hour: "2-digit", minute: "2-digit" });
    return `${p.hour}:${p.minute}`;
  };
  const ago = (seconds) => {
    const s = Math.max(0, Math.floor(seconds));
    if (s < 60) return `${s} s`;
    if (s < 3600) return `${Math.floor(s / 60)} min`;
    return `${Math.floor(s / 3600)} h ${String(Math.floor((s % 3600) / 60)).padStart(2, "0")} min`;
  };
  const el = (tag, attributes, ...children) => {
    const e = document.createElement(tag);
    Object.entries(attributes || {}).forEach(([k, v]) => e.setAttribute(k, v));
    children.forEach((c) => e.append(c));
    return e;
  };
  const none = (words) => el("span", { class: "meta" }, words);
  const fact = (label, name, content) => el("div", {}, el("dt", {}, label), el("dd", { class: name }, ...content));

  // The form that opens or closes the table, or why it cannot close now.
  const statusPart = (t) => {
    if (t.cannot_close) return el("p", { class: "meta cannot-close" }, `Cannot close now: ${t.cannot_close}.`);
    const open = t.status === "open";
    return el(
      "form",
      { method: "post", action: `/floor/tables/${t.id}/${open ? "close" : "open"}`, class: "table-status" },
      el("input", { type: "hidden", name: "csrf_token", value: csrf }),
      el("input", {
        name: "note", maxlength: "500", placeholder: "note",
        "aria-label": `note for ${open ? "closing" : "opening"} ${t.name}`,
      }),
      el("button", { type: "submit", class: open ? "action danger close" : "action open" }, open ? "Close table" : "Open table"),
    );
  };

  // The table's dealers, those signed in marked.
  const dealers = (t) => {
    const out = [];
    t.dealer_status.forEach((d, i) => {
      if (i) out.push(", ");
      out.push(d.name);
      if (d.signed_in) out.push(" ", el("span", { class: "badge signed-in" }, "signed in"));
    });
    return out;
  };

  // A table's card, its ages `extra` seconds later than the board says.
  const card = (t, extra) => {
    const hand = t.open_hand
      ? [el("span", { class: "badge live" }, `#${t.open_hand.number}`), ` for ${ago(t.open_hand.seconds + extra)}`]
      : [none("none")];
    let commit = [none("none yet")];
    if (t.seconds_since_commit !== null && t.seconds_since_commit !== undefined) {
      commit = [`${ago(t.seconds_since_commit + extra)} ago`];
      if (t.last_commit_at) commit.push(" ", el("small", {}, `(${time(t.last_commit_at)})`));
    }
    const hits = t.pending_hits.length ? [el("a", { href: "/floor" }, `${t.pending_hits.length} waiting`)] : [none("none")];
    const voids = [];
    t.voids_today.forEach((v, i) => {
      if (i) voids.push(", ");
      voids.push(el("a", { href: `/tables/${t.id}/hands/${v.hand_number}/sheet` }, `#${v.hand_number}`));
      voids.push(` ${v.reason} ${time(v.at)}`);
    });
    const children = [
      el(
        "div", { class: "board-head" },
        el("a", { class: "name", href: `/tables/${t.id}` }, t.name), " ",
        el("span", { class: `badge table-${t.status}` }, t.status),
      ),
      el("p", { class: "meta stakes" }, `${t.preset} · unit ${t.unit} · rake ${t.rake_per_seat}`),
      el(
        "dl", { class: "board-facts" },
        fact("Dealer", "dealers", t.dealers.length ? dealers(t) : [none("none")]),
        fact("Seats", "seats-filled", [`${t.seats_filled} / ${t.seat_count}`]),
        fact("Hand", "hand", hand),
        fact("Last commit", "last-commit", commit),
        fact("Jackpot hits", "hits", hits),
        fact("Voids today", "voids", voids.length ? voids : [none("none")]),
      ),
    ];
    if (t.status_changed_at) {
      const by = t.status_changed_by ? ` by ${t.status_changed_by}` : "";
      const what = t.status === "closed" ? "Closed" : "Opened";
      children.push(el("p", { class: "meta changed" }, `${what} ${when(t.status_changed_at)}${by}`));
    }
    return { className: `board-table status-${t.status}`, children, status: canChange ? statusPart(t) : null };
  };

  // Redraws the cards in place: a card keeps its place and its form while
  // the form stays the same (a note being typed, the focus).
  const render = () => {
    if (!board) return;
    const extra = (Date.now() - receivedAt) / 1000;
    if (at) at.textContent = when(board.at);
    if (empty) empty.hidden = board.tables.length > 0;
    const keep = new Set();
    board.tables.forEach((t, i) => {
      const id = `table-${t.id}`;
      keep.add(id);
      const drawn = card(t, extra);
      let li = document.getElementById(id);
      if (!li) li = el("li", { id });
      li.className = drawn.className;
      const oldForm = li.querySelector("form.table-status");
      const same = oldForm && drawn.status && drawn.status.tagName === "FORM"
        && oldForm.getAttribute("action") === drawn.status.getAttribute("action");
      Array.from(li.children).forEach((c) => { if (!(same && c === oldForm)) c.remove(); });
      if (same) oldForm.before(...drawn.children);
      else li.append(...drawn.children, ...(drawn.status ? [drawn.status] : []));
      if (list.children[i] !== li) list.insertBefore(li, list.children[i] || null);
    });
    Array.from(list.children).forEach((li) => { if (!keep.has(li.id)) li.remove(); });
  };

  const say = (state, words) => {
    if (!live) return;
    live.dataset.live = state;
    live.textContent = words;
  };

  let delay = 2000;
  const connect = () => {
    const source = new EventSource("/api/v1/board/events");
    source.addEventListener("board", (event) => {
      board = JSON.parse(event.data);
      receivedAt = Date.now();
      delay = 2000;
      render();
      say("on", "live: changes show as they happen.");
    });
    source.addEventListener("error", () => {
      if (source.readyState === EventSource.CLOSED) {
        // Refused (signed out, the server full or stopping): try again later.
        say("off", "not live: trying again…");
        setTimeout(connect, delay);
        delay = Math.min(delay * 2, 60000);
      } else {
        say("off", "not live: reconnecting…");
      }
    });
  };
  connect();
  setInterval(render, 5000);
})();
