// Debrief's connection note (web/connection_note.py puts this into every page it serves, with
// its texts, before Flet's client starts).
//
// Flet's client, when its websocket closes, hides the whole screen behind "Working..." and
// tries again for ever. At a shared table that is the wrong answer twice: when the host stops
// sharing, the link will never work again; when the Wi-Fi drops, the last scores are still
// worth reading. So the page keeps a closed connection from Flet's client and shows a note
// over the screen as it was:
// - closed with SHARING_STOPPED (the host stopped sharing): says so, and how to join again;
//   nothing is tried again (a new share has a new link and PIN);
// - closed otherwise: says the connection is lost and asks the server whether it answers, at
//   once, then after a second, then less and less often (every ten seconds at most), and at
//   once again when the device says its network is back. When it does, the page is loaded
//   again: Flet's client finds its session (or starts anew) and draws it as it is now. (Handed
//   the closing instead, Flet's client connects again by itself, but then merges the whole
//   page the server sends into the screen it kept, which held the page's main thread for 9 to
//   12 s on a 2-core machine, a Black Spy sheet at deal 12; a page loaded again draws the same
//   page from nothing, as at its first start, in about a second.) When the server refuses (its
//   link no longer opens it), the sharing has ended: that note.
((texts) => {
    const SHARING_STOPPED = 4001;
    const ASK_FIRST_MS = 1000;  // then less and less often, at most every ASK_AT_MOST_MS
    const ASK_AT_MOST_MS = 10000;
    const Native = window.WebSocket;
    let note = null;

    const style = document.createElement("style");
    // The theme's inverse surface, as its notes (snack bars) have: dark on a light screen,
    // light on a dark one.
    style.textContent = [
        "#debrief-connection-note{background:#303036;color:#f3eff7}",
        "@media (prefers-color-scheme: dark){",
        "#debrief-connection-note{background:#e4e1e9;color:#303036}}",
        "#debrief-connection-note.folded .body{display:none}",
        // The screen under the note, which no longer answers: drawn greyed, and inert.
        ".debrief-away{filter:grayscale(1) opacity(.55)}",
    ].join("");
    document.head.appendChild(style);
    // Flutter's screen (its host element), which takes every tap of the page.
    const screen = () => document.querySelector("flutter-view, flt-glass-pane");
    // While the note shows, what is under it does nothing (no connection carries a tap): it
    // takes no tap, no focus and no screen reader's action, so nothing offers what does not
    // work (Score, Follow); the scores stay readable.
    const away = (gone) => {
        const view = screen();
        if (view) {
            view.inert = gone;
            view.classList.toggle("debrief-away", gone);
        }
    };
    const show = (kind) => {
        away(true);
        if (!note) {
            note = document.createElement("div");
            note.id = "debrief-connection-note";
            note.setAttribute("role", "alert");
            note.style.cssText = [
                "position:fixed", "left:8px", "right:8px", "bottom:8px", "z-index:2147483647",
                "padding:14px 16px", "border-radius:12px",
                "font:15px/1.4 Roboto,system-ui,sans-serif",
                "box-shadow:0 4px 12px rgba(0,0,0,.35)", "max-width:560px", "margin:0 auto",
            ].join(";");
            // A tap folds it to its title (the totals row of a sheet may sit under it) and
            // back: read the scores, then how to go on.
            note.addEventListener("click", () => note.classList.toggle("folded"));
            note.style.cursor = "pointer";
            document.body.appendChild(note);
        }
        note.dataset.kind = kind;
        note.replaceChildren();
        const title = document.createElement("div");
        title.style.cssText = "font-weight:600;font-size:16px;margin-bottom:4px";
        title.textContent = texts[kind + "_title"];
        const body = document.createElement("div");
        body.className = "body";
        body.textContent = texts[kind + "_body"];
        note.append(title, body);
    };
    const hide = () => {
        if (note && note.dataset.kind === "lost") {
            note.remove();
            note = null;
            away(false);
        }
    };
    // The server's answer to a small request: its status, or 0 when nothing answers.
    const answer = async () => {
        try {
            const response = await fetch("manifest.json", {method: "HEAD", cache: "no-store"});
            return response.status;
        } catch (error) {
            return 0;
        }
    };
    // A wait between two questions, cut short when the device says its network is back (the
    // browser's "online" event): the phone asks at once instead of up to ten seconds later.
    const pause = (ms) => new Promise((resolve) => {
        const over = () => {
            clearTimeout(timer);
            window.removeEventListener("online", over);
            resolve();
        };
        const timer = setTimeout(over, ms);
        window.addEventListener("online", over);
    });

    class KeptSocket extends Native {
        constructor(...args) {
            super(...args);
            this.kept = {close: [], error: [], onclose: null, onerror: null, errors: []};
            this.closedByPage = false;
            super.addEventListener("message", hide);
            super.addEventListener("error", (event) => this.kept.errors.push(event));
            super.addEventListener("close", (event) => this.closed(event));
        }
        addEventListener(type, listener, options) {
            if ((type === "close" || type === "error") && listener) {
                this.kept[type].push(listener);
                return undefined;
            }
            return super.addEventListener(type, listener, options);
        }
        removeEventListener(type, listener, options) {
            if (type === "close" || type === "error") {
                this.kept[type] = this.kept[type].filter((kept) => kept !== listener);
                return undefined;
            }
            return super.removeEventListener(type, listener, options);
        }
        get onclose() { return this.kept.onclose; }
        set onclose(handler) { this.kept.onclose = handler; }
        get onerror() { return this.kept.onerror; }
        set onerror(handler) { this.kept.onerror = handler; }
        close(...args) {
            this.closedByPage = true;
            return super.close(...args);
        }
        deliver(event) {
            const call = (listener, delivered) => {
                try {
                    if (typeof listener === "function") listener.call(this, delivered);
                    else if (listener) listener.handleEvent(delivered);
                } catch (error) {
                    setTimeout(() => { throw error; });  // reported, and the others still run
                }
            };
            for (const error of this.kept.errors) {
                this.kept.error.forEach((listener) => call(listener, error));
                call(this.kept.onerror, error);
            }
            this.kept.close.forEach((listener) => call(listener, event));
            call(this.kept.onclose, event);
        }
        async closed(event) {
            if (this.closedByPage) {
                this.deliver(event);
                return;
            }
            if (event.code === SHARING_STOPPED) {
                show("stopped");
                return;
            }
            show("lost");
            for (let wait = ASK_FIRST_MS; ; wait = Math.min(wait * 1.5, ASK_AT_MOST_MS)) {
                const status = await answer();
                if (status === 403) {
                    show("stopped");
                    return;
                }
                if (status > 0 && status < 500) break;
                await pause(wait);
            }
            location.reload();
        }
    }
    window.WebSocket = KeptSocket;
})
