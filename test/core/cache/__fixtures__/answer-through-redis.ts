// A second process of a fleet: answers one question and leaves the answer in the shared Redis cache.
import KeyvRedis from "@keyv/redis";
import Keyv from "keyv";
import { KeyvCache } from "../../../../src/index.js";
import { ScriptedChatModel, textStep } from "../../../../src/testing/index.js";

const [url, question, answer] = process.argv.slice(2) as [string, string, string];
const keyv = new Keyv({ store: new KeyvRedis(url), namespace: "keelson-test" });
const model = new ScriptedChatModel([textStep(answer)], { cache: new KeyvCache(keyv) });
const output = await model.create({ messages: [{ role: "user", content: question }] });
await keyv.disconnect();
process.stdout.write(JSON.stringify({ text: output.text, cacheHit: output.meta.cacheHit, calls: model.calls.length }));
