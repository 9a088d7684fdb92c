/// The page an invitation link opens (`/join#TOKEN`): plain HTML, a style sheet and a script,
/// served from the binary (no build step, no files at run time). The script is in
/// `BrowserPage+Script.swift`; the protocol it speaks is docs/browser-participant.md.
enum BrowserPage {
    static let html = """
        <!doctype html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>Interlude: watch together</title>
        <link rel="stylesheet" href="/join.css">
        </head>
        <body>
        <header><h1>Interlude</h1><span id="who">not joined</span></header>
        <form id="join-form" hidden>
          <label>Your name <input id="name" maxlength="64" required autocomplete="nickname"></label>
          <label><input type="checkbox" id="waits"> the group waits for my ads</label>
          <button type="submit">Join</button>
        </form>
        <div id="stage">
          <video id="primary" playsinline preload="auto"></video>
          <video id="ad0" class="ad" playsinline preload="auto"></video>
          <video id="ad1" class="ad" playsinline preload="auto"></video>
          <div id="badge" hidden>Ad</div>
        </div>
        <div id="controls">
          <button id="back" type="button" title="Seek back 10 s">&minus;10 s</button>
          <button id="play" type="button">Play</button>
          <button id="pause" type="button">Pause</button>
          <button id="forward" type="button" title="Seek forward 10 s">+10 s</button>
          <button id="unmute" type="button" hidden>Unmute</button>
          <span id="position">–</span>
        </div>
        <p id="group">connecting…</p>
        <p id="notice" role="status"></p>
        <ul id="log"></ul>
        <script src="/join.js"></script>
        </body>
        </html>

        """

    static let style = """
        [hidden] { display: none !important; }
        body { font: 15px/1.4 system-ui, sans-serif; margin: 0 auto; max-width: 960px; padding: 12px; background: #111; color: #eee; }
        header { display: flex; align-items: baseline; gap: 16px; }
        h1 { font-size: 20px; margin: 0 0 8px; }
        #who { color: #aaa; }
        form { display: flex; gap: 12px; align-items: center; margin: 8px 0; }
        #stage { position: relative; width: 100%; aspect-ratio: 16 / 9; background: #000; }
        #stage video { position: absolute; inset: 0; width: 100%; height: 100%; visibility: hidden; }
        #stage video.shown { visibility: visible; }
        #badge { position: absolute; top: 8px; left: 8px; background: #e5b000; color: #000; padding: 2px 8px; font-weight: 600; }
        #controls { display: flex; gap: 8px; align-items: center; margin: 8px 0; }
        button { font: inherit; padding: 4px 12px; }
        #position { font-variant-numeric: tabular-nums; color: #ccc; margin-left: 8px; }
        #notice { min-height: 1.4em; color: #ffb347; }
        #notice.refused { color: #ff6b6b; }
        #log { color: #999; font-size: 13px; max-height: 8em; overflow: auto; padding-left: 18px; }

        """
}
