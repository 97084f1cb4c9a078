// A person's news (docs/protocol.md, "News"): one WebSocket for the page while it is
// open, which says when one of your families changed (a table opened, filled, started or
// ended) or your families did. Each part of a screen that shows a family's tables
// follows it while that part is on the page, and asks the server what is new.

const followers = new Set();
let ws = null;
let wait = 1000;
let timer = null;

function tell(news) {
  for (const f of [...followers]) {
    if (!f.box.isConnected) followers.delete(f);
    else f.told(news);
  }
}

function open() {
  const scheme = location.protocol === "https:" ? "wss:" : "ws:";
  ws = new WebSocket(`${scheme}//${location.host}/api/session/news`);
  ws.onmessage = (e) => {
    let news;
    try {
      news = JSON.parse(e.data);
    } catch {
      return; // not news: nothing to do
    }
    if (news.type === "ready") {
      // Followed from now on: what changed before (since the page asked, or while the
      // news was away) the page asks again.
      wait = 1000;
      document.body.dataset.news = "ready";
      tell({ type: "again" });
    } else tell(news);
  };
  ws.onclose = (e) => {
    ws = null;
    delete document.body.dataset.news;
    // No session (4401) or too many connections (4429): the next screen to follow tries.
    if (e.code === 4401 || e.code === 4429) return;
    timer = setTimeout(() => {
      timer = null;
      for (const f of [...followers]) if (!f.box.isConnected) followers.delete(f);
      if (followers.size) open();
    }, wait);
    wait = Math.min(2 * wait, 30000);
  };
}

/** Call `told(news)` for each piece of news while `box` is on the page: `{type:
 * "family", family}`, `{type: "families"}`, or `{type: "again"}` once the news is
 * followed (anything may have changed since the page asked, or while the news was away).
 * `document.body.dataset.news` is "ready" while it is followed. */
export function followNews(box, told) {
  followers.add({ box, told });
  if (!ws && !timer) open();
}
