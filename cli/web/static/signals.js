// Your turn, felt on a phone in a pocket or beside a plate: a vibration, a short sound
// (on unless muted), the tab's title and icon, and the screen kept awake while seated.
// All of it is the browser's: where an API is missing the page simply does without.

const icon = (fill, mark) => "data:image/svg+xml," + encodeURIComponent(
  "<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 32 32'>"
  + `<rect x='5' y='2' width='22' height='28' rx='4' fill='${fill}' stroke='#1b1b1b' stroke-width='2'/>`
  + `<text x='16' y='22' font-size='16' text-anchor='middle' fill='#1b1b1b'>${mark}</text></svg>`);
const ICON_IDLE = icon("#ffffff", "♠");
const ICON_TURN = icon("#ffd200", "▶");
const VIBRATION = [160, 80, 160];   // ms: buzz, pause, buzz

export class TurnSignals {
  constructor(store) {
    this.store = store;
    this.muted = store.get("muted") === true;
    this.mine = false;
    this.audio = null;
    this.wakeLock = null;
    this.asking = false;
    this.seated = false;
    document.addEventListener("visibilitychange", () => this.keepAwake(this.seated));
  }

  setMuted(muted) {
    this.muted = muted;
    this.store.set("muted", muted);
  }

  // Called on every render: ``mine`` whether the table waits for this player now;
  // the signal goes off once, when it becomes so.
  update(mine, title, turnTitle) {
    if (mine && !this.mine) this.ring();
    this.mine = mine;
    document.title = mine ? `▶ ${turnTitle} · ${title}` : title;
    const link = document.querySelector("link[rel=icon]");
    const href = mine ? ICON_TURN : ICON_IDLE;
    if (link && link.getAttribute("href") !== href) link.setAttribute("href", href);
  }

  // (A browser lets a page buzz or sound only once the player has touched it: after a
  // reload, not before the first tap.)
  ring() {
    if (navigator.userActivation && !navigator.userActivation.hasBeenActive) return;
    try { navigator.vibrate?.(VIBRATION); } catch { /* not allowed here */ }
    if (!this.muted) this.beep();
  }

  // Two short rising tones (about a third of a second), made on the spot.
  beep() {
    const Context = window.AudioContext || window.webkitAudioContext;
    if (!Context) return;
    try {
      this.audio ??= new Context();
      const audio = this.audio;
      if (audio.state === "suspended") audio.resume();
      const now = audio.currentTime;
      const tone = audio.createOscillator();
      const volume = audio.createGain();
      tone.type = "sine";
      tone.frequency.setValueAtTime(660, now);
      tone.frequency.setValueAtTime(880, now + 0.12);
      volume.gain.setValueAtTime(0.0001, now);
      volume.gain.exponentialRampToValueAtTime(0.25, now + 0.02);
      volume.gain.exponentialRampToValueAtTime(0.0001, now + 0.3);
      tone.connect(volume);
      volume.connect(audio.destination);
      tone.start(now);
      tone.stop(now + 0.32);
    } catch { /* no sound here */ }
  }

  // The screen stays on while seated (the browser drops the lock when the page is
  // hidden: it is asked for again when the page comes back).
  async keepAwake(seated) {
    this.seated = seated;
    if (seated && !this.wakeLock && !this.asking && document.visibilityState === "visible"
        && navigator.wakeLock) {
      this.asking = true;
      try {
        this.wakeLock = await navigator.wakeLock.request("screen");
        this.wakeLock.addEventListener("release", () => { this.wakeLock = null; });
      } catch { /* refused (battery saver, no permission): the screen may sleep */ }
      this.asking = false;
    } else if (!seated && this.wakeLock) {
      const lock = this.wakeLock;
      this.wakeLock = null;
      lock.release().catch(() => {});
    }
  }
}
