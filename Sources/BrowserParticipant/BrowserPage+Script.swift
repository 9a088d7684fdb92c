extension BrowserPage {
    /// The page's script: the server-clock estimate (probes, minimum round trip), where the video
    /// should be now (the anchor moved on at its rate, into and out of breaks by the schedule:
    /// ``BrowserAnchor/expectedPosition(at:in:)`` in Swift), the switch between the primary and
    /// the ad `<video>` (the next asset preloaded in the idle one), drift correction, reports and
    /// the buttons. `window.interlude.samples` keeps what it did, for tests.
    static let script = #"""
        'use strict';
        (() => {
          const $ = (id) => document.getElementById(id);
          const primary = $('primary');
          const ads = [$('ad0'), $('ad1')];
          const videos = [primary, ...ads];
          // Chromium's pitch-keeping time stretch loses about 12 ms of media time at each rate
          // change (measured: 1.02 for a second gained -4 ms instead of 20); resampling loses
          // none, at the cost of a pitch shift of at most MAX_NUDGE while correcting.
          for (const v of videos) v.preservesPitch = false;
          const params = new URLSearchParams(location.search);
          const token = decodeURIComponent(location.hash.slice(1));
          const LOOKAHEAD = 8;        // seconds of an asset's preload before it plays
          const SEEK_BEYOND = 0.3;    // seconds off before a seek rather than a rate nudge
          const DEADBAND = 0.005;     // seconds off that are left alone
          const MAX_NUDGE = 0.03;     // the largest rate change, as a fraction
          const START_LEAD = 0.05;    // seconds an element takes to start: the next asset starts this early
          let socket = null, welcome = null, anchor = null;
          let schedule = { breaks: [] };
          let probes = [], probeID = 0, probeTimer = null;
          let shown = null, lastSeekAt = -1e9, parkedFor = null;
          let timers = [];
          const samples = [];
          const state = { role: null, participant: null, group: null, refusals: [], errors: [], closed: null, switches: [] };
          window.interlude = { samples, state, schedule: () => schedule, expected: (t) => anchor && expected(t), serverNow: () => serverNow() };

          const pageNow = () => performance.timeOrigin + performance.now();

          /// The server clock (seconds), from the probe with the smallest round trip.
          function serverNow() {
            if (!probes.length) return null;
            let best = probes[0];
            for (const p of probes) if (p.rtt < best.rtt) best = p;
            return (pageNow() + best.offset) / 1000;
          }

          function notice(text, refused) {
            const el = $('notice');
            el.textContent = text;
            el.className = refused ? 'refused' : '';
          }
          function log(text) {
            const li = document.createElement('li');
            li.textContent = new Date().toLocaleTimeString() + ' ' + text;
            const list = $('log');
            list.prepend(li);
            while (list.children.length > 50) list.lastChild.remove();
          }
          function send(message) {
            if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(message));
          }

          // Where the video should be at server time t (the anchor maths of BrowserAnchor.swift).
          const findBreak = (id) => schedule.breaks.find((b) => b.id === id);
          function assetAt(b, offset) {
            if (!b.assets || !b.assets.length || b.duration == null || offset >= b.duration) return null;
            let start = 0;
            for (let i = 0; i < b.assets.length; i++) {
              const d = b.assets[i].duration;
              if (offset < start + d || i === b.assets.length - 1) return { index: i, offset: offset - start };
              start += d;
            }
            return null;
          }
          function offsetOfAsset(b, index) {
            let sum = 0;
            for (let i = 0; i < index && b.assets && i < b.assets.length; i++) sum += b.assets[i].duration;
            return sum;
          }
          function placed(b, into, resume) {
            if (into >= b.duration) return { primary: resume + (into - b.duration) };
            const a = assetAt(b, into);
            return a ? { brk: b.id, asset: a.index, offset: a.offset } : null;
          }
          function expected(t) {
            const a = anchor;
            const elapsed = (t - a.at) * a.rate;
            if (a.break == null) {
              const target = a.primary + elapsed;
              const b = a.next != null ? findBreak(a.next) : null;
              if (a.rate > 0 && b && b.duration != null && b.assets && b.assets.length && !(a.primary > b.start) && !(target < b.start)) {
                return placed(b, target - b.start, b.resume) || { primary: target };
              }
              return { primary: target };
            }
            const b = findBreak(a.break);
            const stay = { brk: a.break, asset: a.asset, offset: a.offset + elapsed };
            if (!b || b.duration == null) return stay;
            return placed(b, offsetOfAsset(b, a.asset) + a.offset + elapsed, a.resume != null ? a.resume : b.resume) || stay;
          }

          // The ad elements: each holds one asset (its key `break#index`), the next one preloaded.
          function adFor(key) { return ads.find((el) => el.dataset.key === key); }
          function loadAd(key, url, avoid) {
            const el = ads.find((e) => e !== shown && e !== avoid) || ads[0];
            el.dataset.key = key;
            el.src = url;
            el.pause();
            return el;
          }
          // The asset that plays next, and in how many seconds of media, when it is near.
          function upcoming(want) {
            if (want.primary != null) {
              const b = anchor.break == null && anchor.next != null ? findBreak(anchor.next) : null;
              if (b && b.assets && b.assets.length && b.start >= want.primary && b.start - want.primary < LOOKAHEAD) return { b, index: 0, within: b.start - want.primary };
              return null;
            }
            const b = findBreak(want.brk);
            if (!b || !b.assets) return null;
            const left = Math.min(b.assets[want.asset].duration, b.duration - offsetOfAsset(b, want.asset)) - want.offset;
            if (want.asset + 1 < b.assets.length && left < LOOKAHEAD) return { b, index: want.asset + 1, within: left };
            return null;
          }

          function show(el) {
            for (const v of videos) {
              v.classList.toggle('shown', v === el);
              if (v !== el && !v.paused) v.pause();
            }
            const from = shown;
            shown = el;
            $('badge').hidden = el === primary;
            const t = serverNow();
            state.switches.push({ t, to: el === primary ? 'primary' : el.dataset.key, from: from ? (from === primary ? 'primary' : from.dataset.key) : null });
          }

          function playRefused(error) {
            if (error && error.name === 'NotAllowedError' && !primary.muted) {
              // Autoplay with sound needs a gesture: play muted, offer to unmute.
              for (const v of videos) v.muted = true;
              $('unmute').hidden = false;
            }
          }

          function setRate(el, rate) {
            if (Math.abs(el.playbackRate - rate) > 0.001) el.playbackRate = rate;
          }

          function sync(el, target, rate) {
            if (el.readyState < 1) return;
            const now = performance.now();
            const error = el.currentTime - target;
            if (rate === 0) {
              if (!el.paused) el.pause();
              if (Math.abs(error) > 0.04 && !el.seeking) el.currentTime = Math.max(0, target);
              return;
            }
            if (Math.abs(error) > SEEK_BEYOND) {
              if (!el.seeking && now - lastSeekAt > 1500) {
                lastSeekAt = now;
                el.currentTime = Math.max(0, target + 0.08 * rate);
              }
              setRate(el, rate);
            } else if (Math.abs(error) < DEADBAND) {
              setRate(el, rate);
            } else {
              const nudge = Math.max(-MAX_NUDGE, Math.min(MAX_NUDGE, error * 0.5));
              setRate(el, rate * (1 - nudge));
            }
            if (el.paused) el.play().catch(playRefused);
          }

          function step() {
            const t = serverNow();
            if (!anchor || t == null || !welcome) return;
            const want = expected(t);
            let el, target;
            if (want.primary != null) {
              el = primary;
              target = want.primary;
              parkedFor = null;
            } else {
              const b = findBreak(want.brk);
              const asset = b && b.assets && b.assets[want.asset];
              if (!asset) return;
              const key = want.brk + '#' + want.asset;
              el = adFor(key) || loadAd(key, asset.url, null);
              target = want.offset;
              // Primary waits at its resumption point, paused, so the way back is instant.
              const resume = anchor.break === want.brk && anchor.resume != null ? anchor.resume : b.resume;
              if (parkedFor !== want.brk && primary.readyState >= 1) {
                parkedFor = want.brk;
                primary.pause();
                primary.currentTime = resume;
              }
              const left = b.duration - offsetOfAsset(b, want.asset) - want.offset;
              if (anchor.rate > 0 && left <= START_LEAD * anchor.rate && parkedFor === want.brk && primary.paused && primary.readyState >= 3) {
                primary.play().catch(playRefused);
              }
            }
            if (el !== shown) show(el);
            const next = upcoming(want);
            if (next) {
              const key = next.b.id + '#' + next.index;
              const coming = adFor(key) || loadAd(key, next.b.assets[next.index].url, el);
              // Started hidden a moment early, it is at its first frame when it is shown.
              if (anchor.rate > 0 && next.within <= START_LEAD * anchor.rate && coming.paused && coming.readyState >= 3) {
                coming.play().catch(playRefused);
              }
            }
            if (anchor.rate === 0) for (const v of videos) if (v !== el && !v.paused) v.pause();
            sync(el, target, anchor.rate);
            const where = want.primary != null ? want.primary.toFixed(2) : want.brk + ' ad ' + (want.asset + 1) + ' ' + want.offset.toFixed(2);
            $('position').textContent = where;
          }

          function position() {
            if (!shown) return null;
            if (shown === primary) return { primary: primary.currentTime };
            const [id, index] = shown.dataset.key.split('#');
            return { break: id, asset: Number(index), offset: shown.currentTime };
          }
          function videoState() {
            if (!anchor || anchor.rate === 0) return 'paused';
            if (!shown || shown.paused || shown.seeking || shown.readyState < 3) return 'waiting';
            return 'playing';
          }
          function report() {
            const t = serverNow(), where = position();
            if (t == null || where == null) return;
            send(Object.assign({ type: 'report', at: t, state: videoState() }, where));
          }
          function sample() {
            const t = serverNow(), where = position();
            if (t == null || where == null || !anchor) return;
            const want = expected(t);
            const entry = Object.assign({ t, page: pageNow() / 1000, state: videoState(), rate: shown.playbackRate }, where);
            if (want.primary != null && where.primary != null) entry.error = where.primary - want.primary;
            else if (want.brk != null && where.break === want.brk && where.asset === want.asset) entry.error = where.offset - want.offset;
            samples.push(entry);
            if (samples.length > 6000) samples.splice(0, samples.length - 6000);
          }

          function probe() { send({ type: 'probe', id: ++probeID, sent: pageNow() }); }

          function received(m) {
            switch (m.type) {
              case 'probeReply': {
                const back = pageNow();
                probes.push({ rtt: back - m.sent, offset: m.server * 1000 - (m.sent + back) / 2 });
                if (probes.length > 30) probes.shift();
                break;
              }
              case 'welcome':
                welcome = m;
                state.role = m.role;
                state.participant = m.participant;
                $('who').textContent = m.participant + ' (' + m.role + ')';
                if (primary.src !== m.primary) primary.src = m.primary;
                log('joined session ' + m.session + ' as ' + m.role);
                break;
              case 'schedule': schedule = m; break;
              case 'anchor': anchor = m; break;
              case 'group':
                state.group = m;
                $('group').textContent = 'group ' + m.status + (m.waitingFor.length ? ', waiting for ' + m.waitingFor.join(', ') : '');
                break;
              case 'presence': log(m.name + ' (' + m.role + ') ' + m.state); break;
              case 'refused':
                state.refusals.push(m);
                notice((m.action ? m.action + ' refused: ' : 'refused: ') + m.message, true);
                break;
              case 'error':
                state.errors.push(m);
                notice('error: ' + m.message, true);
                break;
              case 'stopped':
                notice('the server refused: ' + m.message, true);
                break;
            }
          }

          function join(name, waits) {
            $('join-form').hidden = true;
            const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
            socket = new WebSocket(scheme + '//' + location.host + '/browser');
            socket.onopen = () => {
              send({ type: 'hello', protocol: 1, token, name, policy: waits ? 'waiting' : 'default' });
              for (let i = 0; i < 8; i++) setTimeout(probe, 100 * i);
              timers.push(setInterval(probe, 1000), setInterval(step, 50), setInterval(report, 250), setInterval(sample, 100));
            };
            socket.onmessage = (event) => {
              let m;
              try { m = JSON.parse(event.data); } catch (e) { return; }
              received(m);
            };
            socket.onclose = (event) => {
              state.closed = { code: event.code, reason: event.reason };
              for (const id of timers) clearInterval(id);
              timers = [];
              for (const v of videos) v.pause();
              $('group').textContent = 'disconnected' + (event.reason ? ': ' + event.reason : '');
            };
          }

          $('play').onclick = () => send({ type: 'action', action: 'play' });
          $('pause').onclick = () => send({ type: 'action', action: 'pause' });
          $('back').onclick = () => send({ type: 'action', action: 'seek', by: -10 });
          $('forward').onclick = () => send({ type: 'action', action: 'seek', by: 10 });
          $('unmute').onclick = () => { for (const v of videos) v.muted = false; $('unmute').hidden = true; };

          if (!token) {
            notice('This link has no invitation: open the http://HOST:PORT/join#TOKEN link that "interlude session create" printed.', true);
            return;
          }
          const given = params.get('name');
          if (given) {
            join(given.slice(0, 64), params.get('policy') === 'waiting');
          } else {
            const form = $('join-form');
            form.hidden = false;
            $('name').value = localStorage.getItem('interlude.name') || '';
            form.onsubmit = (event) => {
              event.preventDefault();
              const name = $('name').value.trim();
              if (!name) return;
              localStorage.setItem('interlude.name', name);
              join(name, $('waits').checked);
            };
          }
        })();

        """#
}
