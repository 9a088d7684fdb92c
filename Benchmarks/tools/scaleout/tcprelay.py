#!/usr/bin/env python3
"""A TCP relay on 127.0.0.1 for the scale-out benchmark: relays LISTEN_PORT to TARGET_PORT, and on
SIGUSR1 resets every connection through it and refuses new ones for CUT_MS milliseconds (each
accepted and closed at once), as a network blip between one server and Redis would.

    tcprelay.py LISTEN_PORT TARGET_PORT CUT_MS

Prints "relaying" once listening and "cut N" at each cut (stdout, flushed). Stops on SIGTERM.
"""
import asyncio
import signal
import socket
import struct
import sys
import time


async def main(listen_port: int, target_port: int, cut_ms: int) -> None:
    writers: set = set()
    state = {"refusing_until": 0.0, "cuts": 0}

    def reset(writer) -> None:
        sock = writer.get_extra_info("socket")
        if sock is not None:
            try:
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
            except OSError:
                pass
        writer.transport.abort()

    def cut() -> None:
        state["refusing_until"] = time.monotonic() + cut_ms / 1000
        state["cuts"] += 1
        for writer in list(writers):
            reset(writer)
        writers.clear()
        print(f"cut {state['cuts']}", flush=True)

    async def pipe(reader, writer) -> None:
        try:
            while True:
                data = await reader.read(65536)
                if not data:
                    break
                writer.write(data)
                await writer.drain()
        except (ConnectionError, OSError):
            pass
        finally:
            writers.discard(writer)
            writer.transport.abort()

    async def accept(reader, writer) -> None:
        if time.monotonic() < state["refusing_until"]:
            reset(writer)
            return
        try:
            upstream_reader, upstream_writer = await asyncio.open_connection("127.0.0.1", target_port)
        except OSError:
            writer.transport.abort()
            return
        writers.update((writer, upstream_writer))
        await asyncio.gather(pipe(reader, upstream_writer), pipe(upstream_reader, writer))

    server = await asyncio.start_server(accept, "127.0.0.1", listen_port)
    loop = asyncio.get_running_loop()
    loop.add_signal_handler(signal.SIGUSR1, cut)
    stop = loop.create_future()
    loop.add_signal_handler(signal.SIGTERM, lambda: stop.done() or stop.set_result(None))
    print("relaying", flush=True)
    async with server:
        await stop


if __name__ == "__main__":
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    asyncio.run(main(int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])))
