// Runs s3rver in a process of its own, so the S3 contract measures the adapter's memory and not
// the stand-in server's. Usage: fork with the data directory as the only argument; the port is
// sent back over IPC, and the server stops when the parent disconnects.
import S3rver from 's3rver';

const directory = process.argv[2];
const server = new S3rver({ address: '127.0.0.1', port: 0, directory, silent: true });
const { port } = await server.run();
process.send({ port });
process.on('disconnect', () => {
  server.close().finally(() => process.exit(0));
});
