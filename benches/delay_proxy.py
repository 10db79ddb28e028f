# A TCP proxy that holds every chunk DELAY seconds before passing it on, each
# way: a database across a network, for comparing builds by their round
# trips (docs/benchmarks.md, 2026-12-04). Python's event loop adds its own
# time: with DELAY 0.0005 a `SELECT 1` through it took about 2.8 ms here
# (psql's \timing), against 0.04 ms straight to the server.
#
#   python3 benches/delay_proxy.py 6543 5432 0.0005 &
#   PG_ADMIN_URL=postgres://postgres@127.0.0.1:6543/postgres PG_URL_OPTIONS='?sslmode=disable' \
#       benches/load_run.sh postgres 30 4
import asyncio, sys
LISTEN, TARGET, DELAY = int(sys.argv[1]), int(sys.argv[2]), float(sys.argv[3])
async def pipe(reader, writer):
    loop = asyncio.get_running_loop()
    try:
        while True:
            data = await reader.read(65536)
            if not data:
                break
            due = loop.time() + DELAY
            await asyncio.sleep(max(0, due - loop.time()))
            writer.write(data)
            await writer.drain()
    except Exception:
        pass
    finally:
        writer.close()
async def handle(r, w):
    tr, tw = await asyncio.open_connection('127.0.0.1', TARGET)
    await asyncio.gather(pipe(r, tw), pipe(tr, w))
async def main():
    server = await asyncio.start_server(handle, '127.0.0.1', LISTEN)
    async with server:
        await server.serve_forever()
asyncio.run(main())
