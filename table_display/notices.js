// The appliance's standing notices on the table display (msg.table.notices): the game store on a
// file system lost at power-off, the Pi shutting down at the end of the night, a mistake in the
// SD card's longhall.txt. They stay until
// the server takes them away. "Shutting down" covers the whole screen: nothing else matters then.

import { h, has, t } from "/static/common.js";

// the notices' own looks, in their own file (the CSP allows only stylesheets from this server)
const style = document.createElement("link");
style.rel = "stylesheet";
style.href = "/table/notices.css";
document.head.append(style);

function text(notice) {
  const key = `notices.${notice.code}`;
  const params = { ...(notice.params || {}) };
  // a reason given as a code (longhall.txt's mistakes): its words in this page's language
  if (params.why && has(`notices.setup_why.${params.why}`)) params.why = t(`notices.setup_why.${params.why}`);
  return has(key) ? t(key, params) : notice.message;
}

/** The elements that show the table's standing notices (none when there are none). */
export function standingNotices(msg) {
  const notices = (msg && msg.table && msg.table.notices) || [];
  return notices.map((notice) =>
    h(
      "div",
      {
        class: notice.code === "shutting_down" ? "appliance-notice shutting-down" : "appliance-notice",
        role: "alert",
        "data-code": notice.code,
      },
      text(notice),
    ),
  );
}
