// The phone's page: the box's table, live (Server-Sent Events), in the phone's language.
"use strict";
(() => {
  const $ = (id) => document.getElementById(id);
  const store = window.localStorage;
  const said = { lang: store.getItem("nsdevice.lang") || (navigator.language || "en").slice(0, 2),
                 seat: Number(store.getItem("nsdevice.seat")) || 0,
                 token: window.sessionStorage.getItem("nsdevice.token") || "",
                 tokenSeat: Number(window.sessionStorage.getItem("nsdevice.tokenSeat")) || 0,
                 joinedGame: Number(window.sessionStorage.getItem("nsdevice.game")) || 0,
                 room: JSON.parse(window.sessionStorage.getItem("nsdevice.room") || "null"),
                 roomSize: Number(store.getItem("nsdevice.roomSize")) || 0,
                 roomSeat: Number(store.getItem("nsdevice.roomSeat")) || 0,
                 // the seat's claim (issue 32): drawn by the box at the seat's first join, kept
                 // here across reloads and restarts; a rejoin or a rename needs it
                 claim: JSON.parse(store.getItem("nsdevice.claim") || "null"),
                 // each seat's sheet as the box took it, by game and seat: the sheet folds
                 // to that one line; `changing` names the seat whose sheet is open again
                 sent: JSON.parse(window.sessionStorage.getItem("nsdevice.sent") || "{}"),
                 changing: "",
                 linesSent: {},  // each line this page sent, by game, seat and round: its points
                 data: null, sheetFor: "", stream: null };
  window.nsdeviceSeen = [];  // what this page showed and when: read by the browser tests

  function element(tag, attributes, text) {
    const node = document.createElement(tag);
    for (const [key, value] of Object.entries(attributes || {})) node.setAttribute(key, value);
    if (text !== undefined) node.textContent = text;
    return node;
  }

  // "label: value" in the page's language (French spaces its colon).
  function labelled(words, label, value) {
    return words.labelled.replace("{label}", label).replace("{value}", value);
  }

  function card(item, small) {
    const node = element("div", { class: "card", "data-symbol": item.symbol, "data-kind": item.kind });
    const [first, second] = item.colours;
    node.style.background = second ? `linear-gradient(${first} 50%, ${second} 50%)` : first;
    node.append(element("img", { src: `/symbol/${item.symbol}.png`, alt: "" }));
    if (!small) node.append(element("span", { class: "label" }, item.label));
    node.title = item.label;
    return node;
  }

  function render(data, via) {
    said.data = data;
    const words = data.words;
    document.documentElement.lang = data.language;
    $("title").textContent = data.title || words.waiting;
    const cards = $("cards");
    cards.replaceChildren(...data.cards.map((item) => card(item, false)));
    cards.className = data.cards.length > 1 ? "two" : "";
    $("lines").replaceChildren(...data.lines.map(([text, role]) => element("li", { class: role }, text)));
    $("earlier-box").hidden = data.earlier.length === 0;
    $("earlier-title").textContent = words.earlier;
    $("earlier").replaceChildren(...data.earlier.flat().map((item) => card(item, true)));
    $("deck-box").hidden = data.deck.length === 0;  // what is left, as the big screens show it
    $("deck-title").textContent = words.deck;
    $("deck").replaceChildren(...data.deck.map((item) => card(item, true)));
    if (data.room) renderRoom(data); else renderSeats(data);
    $("city").textContent = heading(data);
    renderButtons(data);
    renderJoin(data);
    renderLine(data);
    renderSheet(data);
    renderRanking(data);
    window.nsdeviceVoice.say(data.say);  // voice.js: says it once sound is on
    window.nsdeviceSeen.push({ number: data.number, at: Date.now(), screen: data.screen,
                               via: via || "page",  // "stream", "state" (polled) or a re-render
                               cards: data.cards.map((item) => item.symbol),
                               deck: [...$("deck").children].map((node) => node.dataset.symbol),
                               pencil: $("pencil").hidden ? "" : $("pencil").dataset.colour,
                               pass: $("pass").hidden ? "" : $("pass").dataset.colour });
  }

  // The header: the city; a room's phone names its own table and that table's size, never
  // the room's ("Tokyo · Room" until it joins)
  function heading(data) {
    if (!data.room) return data.city || "nsdevice";
    const words = data.words;
    const mine = inRoom(data);
    if (!mine) return `${data.city} · ${words.room}`;
    return words.room_place.replace("{table}", mine.table)
      .replace("{players}", data.room.sizes[mine.size - 1] || "");
  }

  function swatch(id, pencil, text) {
    $(id).hidden = !pencil;
    if (!pencil) return;
    $(`${id}-swatch`).style.background = pencil.hex;
    $(`${id}-text`).textContent = text;
    $(id).dataset.colour = pencil.colour;
  }

  function renderSeats(data) {
    const words = data.words;
    $("mine").hidden = false;
    $("room-join").hidden = true;
    $("spares").replaceChildren();
    $("seat-title").textContent = words.choose_seat;
    const seats = [];
    for (let seat = 1; seat <= data.players; seat++) {
      const button = element("button", { type: "button", id: `seat-${seat}`,
                                          "aria-pressed": String(seat === said.seat) },
                             `${words.seat} ${seat}`);
      button.addEventListener("click", () => { said.seat = seat; store.setItem("nsdevice.seat", seat);
                                                said.sheetFor = ""; render(said.data); });
      seats.push(button);
    }
    $("seats").replaceChildren(...seats);
    const pencil = data.pencils.find((item) => item.seat === said.seat);
    swatch("pencil", pencil, pencil && labelled(words, words.your_pencil, pencil.own));
    const next = data.passes[String(said.seat)];
    swatch("pass", next, next && labelled(words, words.next_pencil, next.name));
  }

  // A room game (issue 25): a name, a table, its size and a seat, then this phone's own
  // pencil from the row every table of its size plays. Names are only ever text here.
  function inRoom(data) {
    return said.room && data.room && said.room.game === data.game ? said.room : null;
  }

  function tableSeat(words, mine) {
    return words.table_seat.replace("{table}", mine.table).replace("{seat}", mine.seat);
  }

  function choices(id, count, chosen, pick) {
    const buttons = [];
    for (let value = 1; value <= count; value++) {
      const button = element("button", { type: "button", id: `${id}-${value}`,
                                          "aria-pressed": String(value === chosen) }, String(value));
      button.addEventListener("click", () => { pick(value); render(said.data); });
      buttons.push(button);
    }
    $(id).replaceChildren(...buttons);
  }

  function keepRoom(room) {
    said.room = room;
    if (room) window.sessionStorage.setItem("nsdevice.room", JSON.stringify(room));
    else window.sessionStorage.removeItem("nsdevice.room");
  }

  // The caller freed this phone's seat (the box's Tables and seats): once the box has
  // listed the seat, its going means it was freed; the join box comes back.
  function stillSeated(data, mine) {
    const seated = (data.room.seated || {})[String(mine.table)] || 0;
    if ((seated >> (mine.seat - 1)) & 1) {
      if (!mine.seen) keepRoom({ ...mine, seen: true });
      return true;
    }
    if (!mine.seen) return true;  // joined a moment ago: the box has not listed it yet
    keepRoom(null);
    said.claim = null;
    store.removeItem("nsdevice.claim");
    $("room-join-said").textContent = data.words.seat_freed;
    return false;
  }

  function renderRoom(data) {
    const words = data.words;
    const room = data.room;
    const mine = inRoom(data) && stillSeated(data, inRoom(data)) ? inRoom(data) : null;
    $("mine").hidden = !mine;
    $("room-join").hidden = Boolean(mine);
    $("seats").replaceChildren();
    if (!mine) {
      $("room-name-label").textContent = words.name;
      $("room-table-label").textContent = words.table_number;
      $("room-size-label").textContent = words.table_size;
      $("room-seat-label").textContent = words.choose_seat;
      $("room-code-label").textContent = words.room_code;
      $("room-join-button").textContent = words.join;
      choices("room-sizes", 4, said.roomSize, (size) => {
        said.roomSize = size; store.setItem("nsdevice.roomSize", size);
        if (said.roomSeat > size) said.roomSeat = 0;
      });
      choices("room-seats", said.roomSize, said.roomSeat, (seat) => {
        said.roomSeat = seat; store.setItem("nsdevice.roomSeat", seat);
      });
      $("pencil").hidden = $("pass").hidden = true;
      return;
    }
    $("seat-title").textContent = `${mine.name} · ${tableSeat(words, mine)}`;
    const over = data.scoring || room.ranking.length > 0;  // nobody holds a pencil then
    const row = over ? [] : room.rows[mine.size - 1] || [];
    const next = over ? [] : room.next_rows[mine.size - 1] || [];
    const pencil = row.find((item) => item.slot === String(mine.seat));
    swatch("pencil", pencil, pencil && labelled(words, words.your_pencil, pencil.own));
    const then = next.find((item) => item.slot === String(mine.seat));
    swatch("pass", then, then && labelled(words, words.next_pencil, then.name));
    // the table's spare pencils (2 and 3 players, C-8): where each lies this round
    $("spares").replaceChildren(...row.filter((item) => item.slot.startsWith("table")).map((item) => {
      const line = element("li", { "data-colour": item.colour });
      const dot = element("span", { class: "swatch" });
      dot.style.background = item.hex;
      line.append(dot, item.line);
      return line;
    }));
  }

  async function roomJoin(tries) {
    const words = said.data.words;
    const name = $("room-name").value.trim();
    const table = Number($("room-table").value);
    const code = $("room-code").value.trim();
    store.setItem("nsdevice.roomName", name);
    store.setItem("nsdevice.roomTable", $("room-table").value);
    if (!name || !Number.isInteger(table) || table < 1 || !said.roomSize || !said.roomSeat) {
      $("room-join-said").textContent = words.fill_in;
      return;
    }
    const body = { name, table, size: said.roomSize, seat: said.roomSeat };
    if (said.claim && said.claim.claim) body.claim = said.claim.claim;  // its own seat, or a move
    const answer = await fetch("/room/join", {
      method: "POST",
      headers: { "Content-Type": "application/json", "X-Join-Code": code },
      body: JSON.stringify(body),
    });
    if (answer.ok) {
      const joined = await answer.json();
      said.claim = { table: joined.table, seat: joined.seat, claim: joined.claim };
      store.setItem("nsdevice.claim", JSON.stringify(said.claim));
      keepRoom({ game: joined.game, table: joined.table, seat: joined.seat, token: joined.token,
                 name, size: said.roomSize, seen: false });
      $("room-join-said").textContent = "";
      render(said.data);
    } else if (answer.status === 503 && tries < 30) {  // the box's inbox is full: again soon
      $("room-join-said").textContent = words.busy;
      const wait = Number(answer.headers.get("Retry-After")) || 1;
      setTimeout(() => roomJoin(tries + 1), wait * 1000 * (1 + Math.random()));
    } else {
      const refusal = await answer.json().catch(() => ({}));
      const reasons = { 403: words.refused, 409: words.table_taken };
      $("room-join-said").textContent = words[refusal.why] || reasons[answer.status] || refusal.error;
    }
  }

  function renderRanking(data) {
    const ranking = data.room ? data.room.ranking : [];
    $("ranking-box").hidden = ranking.length === 0;
    // the room's end: the whole ranking here stands for the caller screen's pages of it
    $("lines").hidden = ranking.length > 0 && data.screen === "room_results";
    if (!ranking.length) return;
    const words = data.words;
    const mine = inRoom(data);
    const own = mine && ranking.find((entry) => entry.table === mine.table && entry.seat === mine.seat);
    // once this phone's line is in, the ranking comes before the sheet (a correction is rare)
    if (own) $("sheet").before($("ranking-box")); else $("sheet").after($("ranking-box"));
    if ($("lines").hidden) $("title").textContent = words.ranking;
    $("ranking-title").textContent = own
      ? words.your_rank.replace("{place}", own.place).replace("{count}", ranking.length) : words.ranking;
    $("ranking-code").textContent = data.room.code ? words.deal_code.replace("{code}", data.room.code) : "";
    $("ranking-head").replaceChildren(...[words.place, words.player, words.table, words.total,
                                          words.best_line].map((text) => element("th", {}, text)));
    $("ranking-rows").replaceChildren(...ranking.map((entry) => {
      const me = mine && entry.table === mine.table && entry.seat === mine.seat;
      const line = element("tr", me ? { class: "me", "aria-current": "true" } : {});
      const name = element("td", {}, entry.name);  // a name is text, never markup
      if (entry.table_winner) name.append(element("span", { class: "won", title: words.table_winner }, "\u00a0★"));
      line.append(element("td", {}, String(entry.place)), name, element("td", {}, String(entry.table)),
                  element("td", {}, String(entry.total)), element("td", {}, String(entry.best_line)));
      return line;
    }));
  }

  function renderButtons(data) {
    const mine = data.buttons && joined(data) && said.seat === data.controller
      && (data.screen === "turn" || data.screen === "round_start");
    $("buttons").hidden = !mine;
    $("press-next").textContent = data.words.next;
    $("press-back").textContent = data.words.back;
  }

  async function press(button) {
    await fetch("/press", {
      method: "POST",
      headers: { "Content-Type": "application/json", "X-Seat-Token": said.token },
      body: JSON.stringify({ seat: said.seat, button }),
    });
  }

  // Joining binds this phone to one seat: the token acts for that seat only, this game only.
  function joined(data) {
    return said.token && said.joinedGame === data.game && said.tokenSeat === said.seat;
  }

  function renderJoin(data) {
    const words = data.words;
    $("join-name-label").textContent = words.name;
    $("code-label").textContent = words.join_code;
    $("join-button").textContent = words.join;
    $("join").hidden = !data.players || Boolean(data.room);
    $("join-form").hidden = Boolean(joined(data));  // joined: only its one line stays
    if (joined(data)) $("join-said").textContent = words.joined;
    else if ($("join-said").textContent === words.joined) $("join-said").textContent = "";
  }

  async function join() {
    const code = $("code").value.trim();
    const words = said.data.words;
    if (!said.seat) { $("join-said").textContent = words.choose_seat; return; }
    const answer = await fetch("/join", {
      method: "POST",
      headers: { "Content-Type": "application/json", "X-Join-Code": code },
      // a name, when given, is the seat's on the result and in the history (issue 34)
      body: JSON.stringify($("join-name").value.trim()
        ? { seat: said.seat, name: $("join-name").value.trim() } : { seat: said.seat }),
    });
    if (answer.ok) {
      const body = await answer.json();
      Object.assign(said, { token: body.token, tokenSeat: body.seat, joinedGame: body.game });
      window.sessionStorage.setItem("nsdevice.token", body.token);
      window.sessionStorage.setItem("nsdevice.tokenSeat", body.seat);
      window.sessionStorage.setItem("nsdevice.game", body.game);
      $("join-said").textContent = words.joined;
      render(said.data);
    } else {
      $("join-said").textContent = answer.status === 403 ? words.refused : (await answer.json()).error;
    }
  }

  // A round's line as the game goes (issue 34): once the round's last card is out, a
  // joined seat sends that line's counts; the box keeps it as its own line entry would.
  const LINE_PARTS = { districts: ["districts", "stations"], quarters: ["quarters", "stops", "monuments"] };

  function renderLine(data) {
    const words = data.words;
    const parts = LINE_PARTS[data.line_scoring];
    const open = Boolean(parts) && !data.room && !data.scoring && data.line_round > 0 && joined(data);
    $("line-row").hidden = !open;
    if (!open) return;
    $("line-title").textContent = words.line_round.replace("{round}", data.line_round);
    $("line-send").textContent = words.send;
    const key = `${data.game}/${data.line_round}/${said.seat}/${data.language}`;
    if (said.lineFor === key) return;
    said.lineFor = key;
    $("line-fields").replaceChildren(...parts.map((part) => number(`line-now-${part}`, words[`count_${part}`])));
    const sent = said.linesSent[`${data.game}/${said.seat}/${data.line_round}`];
    $("line-said").textContent = sent === undefined ? "" : words.line_sent.replace("{points}", sent);
  }

  async function sendLine(event) {
    event.preventDefault();
    const data = said.data;
    const number = data.line_round;
    const line = LINE_PARTS[data.line_scoring].map((part) => value(`line-now-${part}`));
    const answer = await fetch("/line", {
      method: "POST",
      headers: { "Content-Type": "application/json", "X-Seat-Token": said.token },
      body: JSON.stringify({ seat: said.seat, round: number, line }),
    });
    const body = await answer.json().catch(() => ({}));
    if (answer.ok) {
      said.linesSent[`${data.game}/${said.seat}/${number}`] = body.points;
      $("line-said").textContent = data.words.line_sent.replace("{points}", body.points);
    } else {
      $("line-said").textContent = body.error || data.words.busy;
    }
  }

  function number(id, label) {
    const row = element("label", {}, label);
    row.append(element("input", { id, type: "number", min: "0", max: "99", value: "0", inputmode: "numeric" }));
    return row;
  }

  function sheetSeat(data, room) {
    return `${data.game}/${room ? `${room.table}-${room.seat}` : said.seat}`;
  }

  // What this seat's sheet came to as the box took it, or null: a room's from its
  // ranking, else the box's answer this page kept (a table's seat sends once)
  function sentSheet(data, room) {
    if (room) {
      const own = data.room.ranking.find((entry) => entry.table === room.table && entry.seat === room.seat);
      if (own) return { total: own.total, best_line: own.best_line };
    } else if (!joined(data) || !data.seats_in.includes(said.seat)) {
      return null;
    }
    return said.sent[sheetSeat(data, room)] || null;
  }

  function renderSheet(data) {
    const form = $("sheet");
    const words = data.words;
    const room = data.room ? inRoom(data) : null;
    // a room's seat may send again (a correction); a table's seat once, then the box has it
    const open = data.room ? Boolean(data.scoring && room)
      : data.scoring && said.seat && joined(data) && !data.seats_in.includes(said.seat);
    const sent = sentSheet(data, room);
    // what is done folds away: a sent sheet is its one line, until a room's seat opens it
    const folded = Boolean(sent) && said.changing !== sheetSeat(data, room);
    form.hidden = data.room ? !open : !open && !sent;
    $("sheet-title").textContent = `${words.score_sheet} · `
      + (room ? tableSeat(words, room) : `${words.seat} ${said.seat}`);
    $("send").textContent = words.send;
    $("send").disabled = !open;
    $("fields").hidden = $("send").hidden = folded;
    $("sheet-sent").hidden = !folded;
    $("sheet-sent-text").textContent = sent
      ? words.sent.replace("{total}", sent.total).replace("{best}", sent.best_line) : "";
    $("sheet-change").hidden = !room;
    $("sheet-change").textContent = words.change_sheet;
    const seat = room ? `${room.table}-${room.seat}` : said.seat;
    const key = `${data.game}/${data.line_scoring}/${data.objectives}/${seat}/${data.language}`;
    if (!open || said.sheetFor === key) return;
    said.sheetFor = key;
    const fields = [];
    // each field named as the player counts it, by the box's own table (sheet_count)
    const parts = { districts: [words.count_districts, words.count_stations],
                    quarters: [words.count_quarters, words.count_stops, words.count_monuments] }[data.line_scoring];
    if (!parts) {
      fields.push(number("total", words.total), number("best_line", words.best_line));
    } else {
      for (let line = 1; line <= 4; line++) {
        parts.forEach((part, index) => fields.push(number(`line-${line}-${index}`, labelled(words, `${words.line} ${line}`, part))));
      }
      const extra = data.line_scoring === "districts"
        ? ["stamps", "ring_unconnected"] : ["overpasses_once", "overpasses_twice"];
      extra.forEach((id) => fields.push(number(id, words[`count_${id}`])));
      const meet = data.line_scoring === "districts" ? [3, 4, 5] : [2, 3, 4];
      meet.forEach((lines) => fields.push(number(`interchanges-${lines}`, words[`count_interchanges_${lines}`])));
      if (data.objectives) fields.push(number("objectives", words.count_objectives));  // C-11
    }
    $("fields").replaceChildren(...fields);
    // the lines this seat gave as the game went (issue 34): only what is left to fill in
    for (const [seat, number, counts] of room ? [] : data.lines_in) {
      if (seat !== said.seat) continue;
      counts.forEach((count, index) => {
        const field = $(`line-${number}-${index}`);
        if (field) field.value = String(count);
      });
    }
    $("sheet-said").textContent = "";
  }

  function value(id) { return Number($(id).value) || 0; }

  function sheet(data) {
    if (!data.line_scoring) return { total: value("total"), best_line: value("best_line") };
    const parts = data.line_scoring === "districts" ? 2 : 3;
    const lines = [];
    for (let line = 1; line <= 4; line++) {
      const numbers = [...Array(parts).keys()].map((index) => value(`line-${line}-${index}`));
      if (numbers.some((n) => n)) lines.push(numbers);
    }
    if (!lines.length) lines.push(Array(parts).fill(0));
    const meet = data.line_scoring === "districts" ? [3, 4, 5] : [2, 3, 4];
    const result = { lines,
                     interchanges: Object.fromEntries(meet.map((n) => [String(n), value(`interchanges-${n}`)])) };
    if (data.objectives) result.objectives = value("objectives");  // C-11: only when played
    if (data.line_scoring === "districts") {
      Object.assign(result, { stamps: value("stamps"), ring_unconnected: value("ring_unconnected") });
    } else {
      Object.assign(result, { overpasses_once: value("overpasses_once"), overpasses_twice: value("overpasses_twice") });
    }
    return result;
  }

  async function send(event, tries) {
    if (event) event.preventDefault();
    const data = said.data;
    const room = data.room ? inRoom(data) : null;
    const answer = await fetch(room ? "/room/score" : "/score", {
      method: "POST",
      headers: { "Content-Type": "application/json", "X-Seat-Token": room ? room.token : said.token },
      body: JSON.stringify(room ? { sheet: sheet(data) } : { seat: said.seat, sheet: sheet(data) }),
    });
    if (answer.status === 503 && (tries || 0) < 30) {  // the box's inbox is full: again soon
      $("sheet-said").textContent = data.words.busy;
      const wait = Number(answer.headers.get("Retry-After")) || 1;
      setTimeout(() => send(null, (tries || 0) + 1), wait * 1000 * (1 + Math.random()));
      return;
    }
    if (room && answer.status === 403) {  // the seat was freed, or the box restarted (a new
      keepRoom(null);                     // code): the join box again, the claim still kept
      $("room-join-said").textContent = data.words.refused;
      render(data);
      return;
    }
    const body = await answer.json();
    if (!answer.ok) {
      $("sheet-said").textContent = body.error;
      return;
    }
    said.sent[sheetSeat(data, room)] = { total: body.total, best_line: body.best_line };
    window.sessionStorage.setItem("nsdevice.sent", JSON.stringify(said.sent));
    said.changing = "";
    $("sheet-said").textContent = "";
    render(said.data);
  }

  // The live table (issue 32). A box with every stream taken answers 503, which ends an
  // EventSource for good, and a dropped one may not come back by itself: so on any error
  // the page closes it, reads /state at once and every POLL ms (the card still shows),
  // and opens the stream again after a wait that doubles each time, with jitter, from
  // RETRY_FIRST to RETRY_MOST ms. The stream's first table ends the polling.
  const RETRY_FIRST = 1000, RETRY_MOST = 30000, POLL = 2000;
  const again = { wait: RETRY_FIRST, timer: 0, poll: 0 };

  function poll() {
    fetch(`/state?lang=${encodeURIComponent(said.lang)}`)
      .then((answer) => (answer.ok ? answer.json() : null))
      .then((data) => {  // a poll answered after the stream came back is old news
        if (data && again.poll && (!said.data || data.number !== said.data.number)) render(data, "state");
      })
      .catch(() => {});  // the box is away: the next poll or the stream will say
  }

  function polling(on) {
    clearInterval(again.poll);
    again.poll = 0;
    if (!on) return;
    again.poll = setInterval(poll, POLL);
    poll();
  }

  function listen() {
    clearTimeout(again.timer);
    if (said.stream) said.stream.close();
    const stream = new EventSource(`/events?lang=${encodeURIComponent(said.lang)}`);
    said.stream = stream;
    stream.onmessage = (message) => {
      if (said.stream !== stream) return;
      again.wait = RETRY_FIRST;
      polling(false);
      render(JSON.parse(message.data), "stream");
    };
    stream.onerror = () => {
      if (said.stream !== stream) return;
      stream.close();  // refused (503) or dropped: this page decides when to try again
      said.stream = null;
      if (!again.poll) polling(true);
      again.timer = setTimeout(listen, again.wait * (0.5 + Math.random()));
      again.wait = Math.min(RETRY_MOST, again.wait * 2);
    };
  }

  function languages() {
    const choice = $("language");
    fetch(`/state?lang=${encodeURIComponent(said.lang)}`).then((answer) => answer.ok && answer.json()).then((data) => {
      if (!data) return;
      said.lang = data.language;
      choice.replaceChildren(...Object.entries(data.languages).map(([code, name]) =>
        element("option", code === said.lang ? { value: code, selected: "" } : { value: code }, name)));
    });
    choice.addEventListener("change", () => {
      said.lang = choice.value;
      store.setItem("nsdevice.lang", said.lang);
      said.sheetFor = "";
      listen();
    });
  }

  $("join-button").addEventListener("click", join);
  $("room-join-button").addEventListener("click", () => roomJoin(0));
  $("room-name").value = store.getItem("nsdevice.roomName") || "";
  $("room-table").value = store.getItem("nsdevice.roomTable") || "";
  $("press-next").addEventListener("click", () => press("next"));
  $("press-back").addEventListener("click", () => press("back"));
  $("sheet").addEventListener("submit", (event) => send(event, 0));
  $("line-row").addEventListener("submit", sendLine);
  $("sheet-change").addEventListener("click", () => {
    said.changing = sheetSeat(said.data, inRoom(said.data));
    render(said.data);
  });
  languages();
  listen();
})();
