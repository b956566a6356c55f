// The phone's voice (issue 24): says each new card in the phone's own language, from the
// clips the box says it with. Browsers allow sound only after a tap: the speaker button.
"use strict";
(() => {
  const button = document.getElementById("voice");
  const PAUSE = 0.12;  // seconds between two phrases, as on the box
  const state = { context: null, decoded: new Map(), playing: [], said: "", waiting: [] };
  // what this page has played (clip addresses), read by the browser tests
  window.nsdeviceVoice = { played: [], say };

  function clip(url) {
    if (!state.decoded.has(url)) {
      const decoding = fetch(url)
        .then((answer) => (answer.ok ? answer.arrayBuffer() : Promise.reject(answer.status)))
        .then((bytes) => state.context.decodeAudioData(bytes));
      decoding.catch(() => state.decoded.delete(url));  // a failed clip is tried again later
      state.decoded.set(url, decoding);
    }
    return state.decoded.get(url);
  }

  async function say(phrases) {
    const key = phrases.map((phrase) => phrase.url).join(" ");
    if (!key || key === state.said) return;  // nothing to say, or said already
    if (!state.context) { state.waiting = phrases; return; }  // said once sound is on
    state.said = key;
    const context = state.context;
    const clips = await Promise.allSettled(phrases.map((phrase) => clip(phrase.url)));
    if (key !== state.said || context !== state.context) return;  // a newer card came
    for (const source of state.playing) source.stop();  // the new card cuts the old one off
    state.playing = [];
    let at = context.currentTime + 0.02;
    clips.forEach((outcome, index) => {
      if (outcome.status !== "fulfilled") return;  // a clip the box cannot read: left out
      const audio = outcome.value;
      const source = context.createBufferSource();
      source.buffer = audio;
      source.connect(context.destination);
      source.start(at);
      at += audio.duration + PAUSE;
      state.playing.push(source);
      window.nsdeviceVoice.played.push(phrases[index].url);
    });
  }

  button.addEventListener("click", () => {
    const on = !state.context;
    if (on) {
      state.context = new AudioContext();
      state.context.resume();
      const waiting = state.waiting;
      state.waiting = [];
      say(waiting);  // the card on the table now
    } else {
      state.context.close();
      state.context = null;
      state.said = "";
    }
    button.setAttribute("aria-pressed", String(on));  // lit while the phone speaks
  });
})();
