import { createHash } from 'node:crypto';

/**
 * A Dalvik executable (DEX 035) with one class, written byte by byte: Debian ships no DEX compiler
 * (d8/dx), and the shell needs only this much code:
 *
 *   public class <applicationId>.MainActivity extends android.app.Activity {
 *     protected void onCreate(Bundle state) {
 *       super.onCreate(state);
 *       WebView view = new WebView(this);
 *       view.getSettings().setJavaScriptEnabled(true);
 *       view.getSettings().setDomStorageEnabled(true);   // the client keeps its token in sessionStorage
 *       view.setWebViewClient(new WebViewClient());       // links stay inside the app
 *       view.loadUrl(<clientUrl>);
 *       setContentView(view);
 *     }
 *     public void onBackPressed() { … goes back in the page's history while it can … }
 *   }
 *
 * Format: https://source.android.com/docs/core/runtime/dex-format (`dexdump` checks it in the tests).
 */

const ACTIVITY = 'Landroid/app/Activity;';
const BUNDLE = 'Landroid/os/Bundle;';
const WEBVIEW = 'Landroid/webkit/WebView;';
const SETTINGS = 'Landroid/webkit/WebSettings;';
const CLIENT = 'Landroid/webkit/WebViewClient;';
const CONTEXT = 'Landroid/content/Context;';
const VIEW = 'Landroid/view/View;';
const STRING = 'Ljava/lang/String;';

interface MethodRef {
  owner: string;
  name: string;
  returns: string;
  params: string[];
}

const ACC_PUBLIC = 0x1;
const ACC_PROTECTED = 0x4;
const ACC_CONSTRUCTOR = 0x10000;

class Writer {
  private chunks: Buffer[] = [];
  length = 0;
  bytes(b: Buffer | number[]): void {
    const buf = Buffer.isBuffer(b) ? b : Buffer.from(b);
    this.chunks.push(buf);
    this.length += buf.length;
  }
  u2(v: number): void {
    const b = Buffer.alloc(2);
    b.writeUInt16LE(v);
    this.bytes(b);
  }
  u4(v: number): void {
    const b = Buffer.alloc(4);
    b.writeUInt32LE(v >>> 0);
    this.bytes(b);
  }
  uleb(v: number): void {
    const out: number[] = [];
    do {
      let byte = v & 0x7f;
      v >>>= 7;
      if (v !== 0) byte |= 0x80;
      out.push(byte);
    } while (v !== 0);
    this.bytes(out);
  }
  align(n: number): void {
    while (this.length % n) this.bytes([0]);
  }
  buffer(): Buffer {
    return Buffer.concat(this.chunks);
  }
}

const shorty = (t: string) => (t.startsWith('L') || t.startsWith('[') ? 'L' : t);
const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
const compareLists = (a: number[], b: number[]) => {
  for (let i = 0; i < Math.min(a.length, b.length); i++) if (a[i] !== b[i]) return a[i] - b[i];
  return a.length - b.length;
};

/** The Java class name as a DEX type descriptor: com.example.App → Lcom/example/App; */
export const descriptorOf = (className: string) => `L${className.replace(/\./g, '/')};`;

export function webViewActivityDex(className: string, url: string): Buffer {
  if (!/^[\x20-\x7e]*$/.test(url)) throw new Error('the URL must be ASCII (percent-encoded)');
  const self = descriptorOf(className);
  const m = (owner: string, name: string, returns: string, params: string[] = []): MethodRef => ({ owner, name, returns, params });
  const refs = {
    activityInit: m(ACTIVITY, '<init>', 'V'),
    activityOnCreate: m(ACTIVITY, 'onCreate', 'V', [BUNDLE]),
    activityOnBack: m(ACTIVITY, 'onBackPressed', 'V'),
    setContentView: m(ACTIVITY, 'setContentView', 'V', [VIEW]),
    findViewById: m(ACTIVITY, 'findViewById', VIEW, ['I']),
    webViewInit: m(WEBVIEW, '<init>', 'V', [CONTEXT]),
    getSettings: m(WEBVIEW, 'getSettings', SETTINGS),
    setWebViewClient: m(WEBVIEW, 'setWebViewClient', 'V', [CLIENT]),
    loadUrl: m(WEBVIEW, 'loadUrl', 'V', [STRING]),
    canGoBack: m(WEBVIEW, 'canGoBack', 'Z'),
    goBack: m(WEBVIEW, 'goBack', 'V'),
    setId: m(VIEW, 'setId', 'V', ['I']),
    setJavaScript: m(SETTINGS, 'setJavaScriptEnabled', 'V', ['Z']),
    setDomStorage: m(SETTINGS, 'setDomStorageEnabled', 'V', ['Z']),
    clientInit: m(CLIENT, '<init>', 'V'),
    selfInit: m(self, '<init>', 'V'),
    selfOnCreate: m(self, 'onCreate', 'V', [BUNDLE]),
    selfOnBack: m(self, 'onBackPressed', 'V'),
  };
  const methods = Object.values(refs);

  // the pools, each sorted as the format requires
  const protoKey = (r: MethodRef) => [r.returns, ...r.params].join('|');
  const typeNames = [...new Set([...methods.flatMap((r) => [r.owner, r.returns, ...r.params])])].sort(compare);
  const protoShapes = [...new Map(methods.map((r) => [protoKey(r), r])).values()];
  const strings = [
    ...new Set([...typeNames, ...methods.map((r) => r.name), ...protoShapes.map((r) => [r.returns, ...r.params].map(shorty).join('')), url]),
  ].sort(compare);
  const stringIndex = (s: string) => strings.indexOf(s);
  const typeIndex = (t: string) => typeNames.indexOf(t);
  const protos = protoShapes
    .map((r) => ({ key: protoKey(r), shorty: [r.returns, ...r.params].map(shorty).join(''), returns: typeIndex(r.returns), params: r.params.map(typeIndex) }))
    .sort((a, b) => a.returns - b.returns || compareLists(a.params, b.params));
  const protoIndex = (r: MethodRef) => protos.findIndex((p) => p.key === protoKey(r));
  const methodIds = methods
    .map((r) => ({ ref: r, cls: typeIndex(r.owner), name: stringIndex(r.name), proto: protoIndex(r) }))
    .sort((a, b) => a.cls - b.cls || a.name - b.name || a.proto - b.proto);
  const methodIndex = (r: MethodRef) => methodIds.findIndex((x) => x.ref === r);

  // instructions (16-bit code units)
  const invoke = (op: number, ref: MethodRef, regs: number[]) => [
    (regs.length << 12) | op,
    methodIndex(ref),
    (regs[0] ?? 0) | ((regs[1] ?? 0) << 4) | ((regs[2] ?? 0) << 8) | ((regs[3] ?? 0) << 12),
  ];
  const [DIRECT, SUPER, VIRTUAL] = [0x70, 0x6f, 0x6e];
  const VIEW_ID = 1;
  // <init>: one register, `this` = v0
  const initCode = { registers: 1, ins: 1, outs: 1, insns: [...invoke(DIRECT, refs.activityInit, [0]), 0x000e] };
  // onCreate: locals v0-v2, this = v3, state = v4
  const onCreateCode = {
    registers: 5,
    ins: 2,
    outs: 2,
    insns: [
      ...invoke(SUPER, refs.activityOnCreate, [3, 4]),
      (0 << 8) | 0x22,
      typeIndex(WEBVIEW), // new-instance v0, WebView
      ...invoke(DIRECT, refs.webViewInit, [0, 3]),
      ...invoke(VIRTUAL, refs.getSettings, [0]),
      (1 << 8) | 0x0c, // move-result-object v1
      (1 << 12) | (2 << 8) | 0x12, // const/4 v2, #1
      ...invoke(VIRTUAL, refs.setJavaScript, [1, 2]),
      ...invoke(VIRTUAL, refs.setDomStorage, [1, 2]),
      ...invoke(VIRTUAL, refs.setId, [0, 2]), // the view's id (1) finds it again in onBackPressed
      (1 << 8) | 0x22,
      typeIndex(CLIENT), // new-instance v1, WebViewClient
      ...invoke(DIRECT, refs.clientInit, [1]),
      ...invoke(VIRTUAL, refs.setWebViewClient, [0, 1]),
      (1 << 8) | 0x1a,
      stringIndex(url), // const-string v1, url
      ...invoke(VIRTUAL, refs.loadUrl, [0, 1]),
      ...invoke(VIRTUAL, refs.setContentView, [3, 0]),
      0x000e, // return-void
    ],
  };
  // onBackPressed: locals v0-v1, this = v2
  const backInsns = [
    (VIEW_ID << 12) | (1 << 8) | 0x12, // const/4 v1, #VIEW_ID
    ...invoke(VIRTUAL, refs.findViewById, [2, 1]),
    (0 << 8) | 0x0c, // move-result-object v0
    (0 << 8) | 0x1f,
    typeIndex(WEBVIEW), // check-cast v0, WebView
    ...invoke(VIRTUAL, refs.canGoBack, [0]),
    (1 << 8) | 0x0a, // move-result v1
  ];
  // if-eqz v1, +N → super.onBackPressed(); else goBack()
  const goBack = [...invoke(VIRTUAL, refs.goBack, [0]), 0x000e];
  const toSuper = [...invoke(SUPER, refs.activityOnBack, [2]), 0x000e];
  const onBackCode = { registers: 3, ins: 1, outs: 2, insns: [...backInsns, (1 << 8) | 0x38, 2 + goBack.length, ...goBack, ...toSuper] };

  // layout: header, id tables, then the data section
  const HEADER = 0x70;
  const stringIdsOff = HEADER;
  const typeIdsOff = stringIdsOff + strings.length * 4;
  const protoIdsOff = typeIdsOff + typeNames.length * 4;
  const methodIdsOff = protoIdsOff + protos.length * 12;
  const classDefsOff = methodIdsOff + methodIds.length * 8;
  const dataOff = classDefsOff + 32;

  const data = new Writer();
  const at = () => dataOff + data.length;
  const codeOffsets: number[] = [];
  const codeOff = at();
  for (const code of [initCode, onCreateCode, onBackCode]) {
    data.align(4);
    codeOffsets.push(at());
    data.u2(code.registers);
    data.u2(code.ins);
    data.u2(code.outs);
    data.u2(0);
    data.u4(0);
    data.u4(code.insns.length);
    for (const unit of code.insns) data.u2(unit);
  }
  data.align(4);
  const typeListOff = at();
  const paramLists = [...new Set(protos.filter((p) => p.params.length).map((p) => p.params.join(',')))];
  const typeListOffsets = new Map<string, number>();
  for (const list of paramLists) {
    data.align(4);
    typeListOffsets.set(list, at());
    const items = list.split(',').map(Number);
    data.u4(items.length);
    for (const item of items) data.u2(item);
  }
  const stringDataOff = at();
  const stringOffsets: number[] = [];
  for (const s of strings) {
    stringOffsets.push(at());
    data.uleb(s.length);
    data.bytes(Buffer.from(s, 'ascii'));
    data.bytes([0]);
  }
  const classDataOff = at();
  const direct = [{ index: methodIndex(refs.selfInit), flags: ACC_PUBLIC | ACC_CONSTRUCTOR, code: codeOffsets[0] }];
  const virtual = [
    { index: methodIndex(refs.selfOnCreate), flags: ACC_PROTECTED, code: codeOffsets[1] },
    { index: methodIndex(refs.selfOnBack), flags: ACC_PUBLIC, code: codeOffsets[2] },
  ].sort((a, b) => a.index - b.index);
  data.uleb(0);
  data.uleb(0);
  data.uleb(direct.length);
  data.uleb(virtual.length);
  for (const list of [direct, virtual]) {
    let previous = 0;
    for (const method of list) {
      data.uleb(method.index - previous);
      previous = method.index;
      data.uleb(method.flags);
      data.uleb(method.code);
    }
  }
  data.align(4);
  const mapOff = at();
  const map: [number, number, number][] = [
    [0x0000, 1, 0],
    [0x0001, strings.length, stringIdsOff],
    [0x0002, typeNames.length, typeIdsOff],
    [0x0003, protos.length, protoIdsOff],
    [0x0005, methodIds.length, methodIdsOff],
    [0x0006, 1, classDefsOff],
    [0x2001, 3, codeOff],
    [0x1001, paramLists.length, typeListOff],
    [0x2002, strings.length, stringDataOff],
    [0x2000, 1, classDataOff],
    [0x1000, 1, mapOff],
  ];
  data.u4(map.length);
  for (const [type, size, offset] of map) {
    data.u2(type);
    data.u2(0);
    data.u4(size);
    data.u4(offset);
  }
  const dataBytes = data.buffer();
  const fileSize = dataOff + dataBytes.length;

  const head = new Writer();
  head.bytes(Buffer.from('dex\n035\0', 'binary'));
  head.u4(0); // checksum, below
  head.bytes(Buffer.alloc(20)); // signature, below
  for (const v of [fileSize, HEADER, 0x12345678, 0, 0, mapOff]) head.u4(v);
  for (const [size, offset] of [
    [strings.length, stringIdsOff],
    [typeNames.length, typeIdsOff],
    [protos.length, protoIdsOff],
    [0, 0],
    [methodIds.length, methodIdsOff],
    [1, classDefsOff],
    [dataBytes.length, dataOff],
  ]) {
    head.u4(size);
    head.u4(offset);
  }
  for (const offset of stringOffsets) head.u4(offset);
  for (const t of typeNames) head.u4(stringIndex(t));
  for (const p of protos) {
    head.u4(stringIndex(p.shorty));
    head.u4(p.returns);
    head.u4(p.params.length ? typeListOffsets.get(p.params.join(','))! : 0);
  }
  for (const x of methodIds) {
    head.u2(x.cls);
    head.u2(x.proto);
    head.u4(x.name);
  }
  for (const v of [typeIndex(self), ACC_PUBLIC, typeIndex(ACTIVITY), 0, 0xffffffff, 0, classDataOff, 0]) head.u4(v);
  const file = Buffer.concat([head.buffer(), dataBytes]);
  if (file.length !== fileSize) throw new Error(`dex layout: ${file.length} != ${fileSize}`);
  createHash('sha1').update(file.subarray(32)).digest().copy(file, 12);
  file.writeUInt32LE(adler32(file.subarray(12)), 8);
  return file;
}

function adler32(data: Buffer): number {
  let a = 1;
  let b = 0;
  for (const byte of data) {
    a = (a + byte) % 65521;
    b = (b + a) % 65521;
  }
  return ((b << 16) | a) >>> 0;
}
