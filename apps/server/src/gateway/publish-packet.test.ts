import mqttPacket from 'mqtt-packet';
import { describe, expect, it } from 'vitest';
import { qos0PublishPacket } from './publish-packet.js';

const reference = (topic: string, payload: string) =>
  mqttPacket.generate({
    cmd: 'publish',
    topic,
    payload: Buffer.from(payload),
    qos: 0,
    retain: false,
    dup: false,
  });

describe('the QoS 0 PUBLISH packet', () => {
  it('is byte for byte what mqtt-packet generates, at every remaining-length size', () => {
    const topic = 'pf/v1/d/PANEL-0001/cmd';
    // Remaining lengths of 1, 2 and 3 bytes, their boundaries (127/128, 16,383/16,384), and UTF-8.
    for (const size of [0, 1, 100, 103, 104, 200, 16_359, 16_360, 70_000]) {
      const payload = 'x'.repeat(size);
      expect(
        qos0PublishPacket(topic, payload).equals(reference(topic, payload)),
        `payload of ${size} bytes`,
      ).toBe(true);
    }
    expect(
      qos0PublishPacket('pf/v1/d/面板-1/cmd', '{"value":"音量 ü"}').equals(
        reference('pf/v1/d/面板-1/cmd', '{"value":"音量 ü"}'),
      ),
    ).toBe(true);
  });

  it('parses back to the same topic and payload', () => {
    const parser = mqttPacket.parser();
    const packets: mqttPacket.IPublishPacket[] = [];
    parser.on('packet', (p) => packets.push(p as mqttPacket.IPublishPacket));
    parser.parse(
      Buffer.concat([qos0PublishPacket('a/b', '{"id":1}'), qos0PublishPacket('c', 'y'.repeat(300))]),
    );
    expect(packets.map((p) => [p.topic, p.payload.toString(), p.qos, p.retain])).toEqual([
      ['a/b', '{"id":1}', 0, false],
      ['c', 'y'.repeat(300), 0, false],
    ]);
  });
});
