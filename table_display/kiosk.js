// When this page is the Pi's own kiosk (its address says ?kiosk), it hides the pointer (with no
// mouse plugged in, cage still shows one on a Pi 4: the HDMI CEC input counts as a pointer) and
// tells the server every few seconds that it still runs. The kiosk's health check restarts
// Chromium when that stops: a crashed tab ("Aw, Snap") or a hung page never exits by itself.

const ALIVE_SECONDS = 5;

/** Start the kiosk's duties if this page is the kiosk's; whether it is. */
export function startKiosk() {
  if (!new URLSearchParams(location.search).has("kiosk")) return false;
  const style = document.createElement("link");
  style.rel = "stylesheet";
  style.href = "/table/kiosk.css";
  document.head.append(style);
  document.documentElement.classList.add("kiosk");
  const alive = () =>
    fetch("/appliance/kiosk-alive", { method: "POST", cache: "no-store" }).catch(() => {});
  alive();
  setInterval(alive, ALIVE_SECONDS * 1000);
  return true;
}
