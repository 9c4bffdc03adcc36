const PUBLISH_QOS0 = 0x30;
const MAX_REMAINING_LENGTH = 268_435_455;

/**
 * A whole MQTT 3.1.1 PUBLISH packet at QoS 0, not retained (section 3.3), in one buffer: the
 * fixed header, the remaining length (1-4 bytes, 7 bits each), the topic with its 2-byte length,
 * then the payload. One buffer is one socket write, where the broker's generic writer makes
 * several small writes and two Packet objects per message.
 */
export function qos0PublishPacket(topic: string, payload: string): Buffer {
  const topicLength = Buffer.byteLength(topic);
  const remaining = 2 + topicLength + Buffer.byteLength(payload);
  if (topicLength > 0xffff || remaining > MAX_REMAINING_LENGTH)
    throw new RangeError(`PUBLISH too large: topic ${topicLength} bytes, packet ${remaining} bytes`);
  let lengthBytes = 1;
  for (let rest = remaining; rest >= 128; rest = Math.floor(rest / 128)) lengthBytes++;
  const packet = Buffer.allocUnsafe(1 + lengthBytes + remaining);
  let offset = 0;
  packet[offset++] = PUBLISH_QOS0;
  let rest = remaining;
  do {
    const digit = rest % 128;
    rest = Math.floor(rest / 128);
    packet[offset++] = rest > 0 ? digit | 0x80 : digit;
  } while (rest > 0);
  offset = packet.writeUInt16BE(topicLength, offset);
  offset += packet.write(topic, offset, 'utf8');
  packet.write(payload, offset, 'utf8');
  return packet;
}
