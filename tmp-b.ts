import { benchXmlParser } from "./bench/xml-parser.js";

for (let i = 0; i < 3; i++) {
  const r = await benchXmlParser({ naiveRuns: 0 as number });
  console.log(r.oneMb.medianMs, r.fourMb.medianMs, r.growthRatio);
}
