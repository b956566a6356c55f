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

  function render(data) {
    said.data = data;
    const words = data.words;
    document.documentElement.lang = data.language;
    $("city").textContent = data.city || "nsdevice";
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
    renderSeats(data);
    renderButtons(data);
    renderJoin(data);
    renderSheet(data);
    window.nsdeviceVoice.say(data.say);  // voice.js: says it once sound is on
    window.nsdeviceSeen.push({ number: data.number, at: Date.now(), screen: data.screen,
                               cards: data.cards.map((item) => item.symbol),
                               deck: [...$("deck").children].map((node) => node.dataset.symbol),
                               pencil: $("pencil").hidden ? "" : $("pencil").dataset.colour,
                               pass: $("pass").hidden ? "" : $("pass").dataset.colour });
  }

  function renderSeats(data) {
    const words = data.words;
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
    $("pencil").hidden = !pencil;
    if (pencil) {
      $("pencil-swatch").style.background = pencil.hex;
      $("pencil-text").textContent = labelled(words, words.your_pencil, pencil.line);
      $("pencil").dataset.colour = pencil.colour;
    }
    const next = data.passes[String(said.seat)];
    $("pass").hidden = !next;
    if (next) {
      $("pass-swatch").style.background = next.hex;
      $("pass-text").textContent = labelled(words, words.next_pencil, next.name);
      $("pass").dataset.colour = next.colour;
    }
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
    $("code-label").textContent = words.join_code;
    $("join-button").textContent = words.join;
    $("join").hidden = !data.players;
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
      body: JSON.stringify({ seat: said.seat }),
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

  function number(id, label) {
    const row = element("label", {}, label);
    row.append(element("input", { id, type: "number", min: "0", max: "99", value: "0", inputmode: "numeric" }));
    return row;
  }

  function renderSheet(data) {
    const form = $("sheet");
    const open = data.scoring && said.seat && joined(data) && !data.seats_in.includes(said.seat);
    form.hidden = !open && !data.seats_in.includes(said.seat);
    const words = data.words;
    $("sheet-title").textContent = `${words.score_sheet} · ${words.seat} ${said.seat}`;
    $("send").textContent = words.send;
    $("send").disabled = !open;
    const key = `${data.game}/${data.line_scoring}/${said.seat}/${data.language}`;
    if (!open || said.sheetFor === key) return;
    said.sheetFor = key;
    const fields = [];
    const parts = { districts: [words.districts, words.stations],
                    quarters: [words.quarters, words.stations, words.monuments] }[data.line_scoring];
    if (!parts) {
      fields.push(number("total", words.total), number("best_line", words.best_line));
    } else {
      for (let line = 1; line <= 4; line++) {
        parts.forEach((part, index) => fields.push(number(`line-${line}-${index}`, labelled(words, `${words.line} ${line}`, part))));
      }
      const extra = data.line_scoring === "districts"
        ? [["stamps", words.stamps], ["ring_unconnected", words.ring_unconnected]]
        : [["overpasses_once", words.overpasses_once], ["overpasses_twice", words.overpasses_twice]];
      extra.forEach(([id, label]) => fields.push(number(id, label)));
      const meet = data.line_scoring === "districts" ? [3, 4, 5] : [2, 3, 4];
      meet.forEach((lines) => fields.push(number(`interchanges-${lines}`, words.interchanges.replace("{lines}", lines))));
      fields.push(number("objectives", words.objectives));
    }
    $("fields").replaceChildren(...fields);
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
    const result = { lines, objectives: value("objectives"),
                     interchanges: Object.fromEntries(meet.map((n) => [String(n), value(`interchanges-${n}`)])) };
    if (data.line_scoring === "districts") {
      Object.assign(result, { stamps: value("stamps"), ring_unconnected: value("ring_unconnected") });
    } else {
      Object.assign(result, { overpasses_once: value("overpasses_once"), overpasses_twice: value("overpasses_twice") });
    }
    return result;
  }

  async function send(event) {
    event.preventDefault();
    const data = said.data;
    const answer = await fetch("/score", {
      method: "POST",
      headers: { "Content-Type": "application/json", "X-Seat-Token": said.token },
      body: JSON.stringify({ seat: said.seat, sheet: sheet(data) }),
    });
    const body = await answer.json();
    $("sheet-said").textContent = answer.ok
      ? data.words.sent.replace("{total}", body.total).replace("{best}", body.best_line)
      : body.error;
  }

  function listen() {
    if (said.stream) said.stream.close();
    said.stream = new EventSource(`/events?lang=${encodeURIComponent(said.lang)}`);
    said.stream.onmessage = (message) => render(JSON.parse(message.data));
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
  $("press-next").addEventListener("click", () => press("next"));
  $("press-back").addEventListener("click", () => press("back"));
  $("sheet").addEventListener("submit", send);
  languages();
  listen();
})();
