import net from 'node:net';

export interface SmtpSink {
  url: string;
  /** The recipients of every message accepted so far, one entry per message. */
  recipients: string[][];
  close(): Promise<void>;
}

/**
 * A minimal SMTP server on a free local port that accepts every message (no TLS, no auth): enough
 * for nodemailer to deliver to it, so a test can run the server as if a mail server were set up.
 */
export async function startSmtpSink(): Promise<SmtpSink> {
  const recipients: string[][] = [];
  const server = net.createServer((socket) => {
    let buffer = '';
    let inData = false;
    let current: string[] = [];
    const reply = (line: string) => socket.write(`${line}\r\n`);
    reply('220 sink ESMTP');
    socket.on('data', (chunk: Buffer) => {
      buffer += chunk.toString('utf8');
      let cut: number;
      while ((cut = buffer.indexOf('\r\n')) >= 0) {
        const line = buffer.slice(0, cut);
        buffer = buffer.slice(cut + 2);
        if (inData) {
          if (line === '.') {
            inData = false;
            recipients.push(current);
            current = [];
            reply('250 accepted');
          }
          continue;
        }
        const verb = line.slice(0, 4).toUpperCase();
        if (verb === 'EHLO' || verb === 'HELO') reply('250 sink');
        else if (verb === 'MAIL') reply('250 ok');
        else if (verb === 'RCPT') {
          current.push(/<([^>]*)>/.exec(line)?.[1] ?? '');
          reply('250 ok');
        } else if (verb === 'DATA') {
          inData = true;
          reply('354 go on');
        } else if (verb === 'QUIT') {
          reply('221 bye');
          socket.end();
        } else reply('250 ok');
      }
    });
    // A client that drops the connection (nodemailer after QUIT) ends only its own exchange.
    socket.on('error', () => socket.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    recipients,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
