// Figure 1 of the PLDI'07 paper in JavaScript: an ftp connection served by one worker while a time-out thread
// (here the main thread) closes it. close() sets the connection's fields without the lock the connection thread
// never takes; the connection thread's next access to them would race, so Goldilocks throws DataRaceException
// there, before the access, and the connection thread closes gracefully instead of using a half-closed connection.
//   npx goldilocks run examples/ftp-connection.mjs
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import { Mutex } from 'goldilocks/sync';

// The connection object's fields, in shared memory: [m_isConnectionClosed, m_writer, m_reader, m_request].
const CLOSED = 0;
const WRITER = 1;
const READER = 2;
const REQUEST = 3;
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

if (isMainThread) {
  const conn = new Int32Array(new SharedArrayBuffer(16));
  const lock = new Mutex('connection');
  conn[WRITER] = 1; // open handles
  conn[READER] = 1;
  conn[REQUEST] = 1;
  const worker = new Worker(new URL(import.meta.url), { workerData: { conn, lock: lock.handle } });
  // the connection reports what it served; after 3 commands it falls idle and the time-out thread closes it
  // (a message orders the connection's past before the close, not the close before the connection's future)
  const idle = new Promise((resolve) => worker.on('message', (m) => (m === 3 ? resolve() : console.log(`[connection] ${m}`))));
  await idle;
  await sleep(10);
  // close()
  lock.lock();
  const wasClosed = conn[CLOSED] === 1;
  conn[CLOSED] = 1;
  lock.unlock();
  if (!wasClosed) {
    conn[REQUEST] = 0;
    conn[WRITER] = 0;
    conn[READER] = 0;
    console.log('[time-out] connection closed');
  }
} else {
  const { conn } = workerData;
  // run()
  let served = 0;
  try {
    do {
      const commandLine = conn[READER] ? `NOOP ${served}` : null; // m_reader.readLine()
      conn[REQUEST] = commandLine ? 1 : 0; // m_request.parse(commandLine)
      if (conn[WRITER] === 0) throw new TypeError('m_writer is null'); // what the race would have caused
      served++; // service(m_request, m_writer)
      parentPort.postMessage(served);
      await sleep(served < 3 ? 1 : 500); // wait for the next command (long: the close comes first even on a loaded host)
    } while (!conn[CLOSED]);
  } catch (e) {
    if (e.name !== 'DataRaceException') throw e;
    parentPort.postMessage(`Connection closed! (${e.message.split(':')[0]}; served ${served} commands)`);
  }
}
