import http from "node:http";
import type { AddressInfo } from "node:net";

/** The button's box on the main page, in viewport pixels. */
export const BUTTON = { x: 40, y: 40, width: 200, height: 60 };
/** The text input's box on the main page. */
export const INPUT = { x: 40, y: 140, width: 300, height: 40 };

const MAIN_PAGE = `<!doctype html>
<html><head><title>Test page</title>
<style>
  body { margin: 0; font-family: sans-serif; }
  #go { position: absolute; left: ${BUTTON.x}px; top: ${BUTTON.y}px; width: ${BUTTON.width}px; height: ${BUTTON.height}px; }
  #name { position: absolute; left: ${INPUT.x}px; top: ${INPUT.y}px; width: ${INPUT.width}px; height: ${INPUT.height}px; box-sizing: border-box; }
</style></head>
<body>
  <button id="go">Press me</button>
  <input id="name" type="text">
  <script>
    console.log("page ready");
    const go = document.getElementById("go");
    go.addEventListener("click", () => {
      go.textContent = "Pressed";
      console.log("button says " + go.textContent);
    });
    document.getElementById("name").addEventListener("input", (event) => {
      console.log("input is " + event.target.value);
    });
    setTimeout(() => { throw new Error("boom from the page"); }, 0);
  </script>
</body></html>`;

const LONG_PAGE = `<!doctype html>
<html><head><title>Long page</title></head>
<body style="margin:0">
  <div style="height: 5000px; background: linear-gradient(#fff, #06c)">tall</div>
  <script>
    let timer;
    window.addEventListener("scroll", () => {
      clearTimeout(timer);
      timer = setTimeout(() => console.log("scrollY=" + Math.round(window.scrollY)), 50);
    });
  </script>
</body></html>`;

export interface TestServer {
  url: string;
  close(): Promise<void>;
}

/** Serves `/` (button, input, console output) and `/long` (a page to scroll). */
export function startPageServer(): Promise<TestServer> {
  return listen((request, response) => {
    const body = request.url === "/long" ? LONG_PAGE : request.url === "/" ? MAIN_PAGE : undefined;
    if (body === undefined) {
      response.writeHead(404, { "content-type": "text/plain" }).end("not found");
      return;
    }
    response.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(body);
  });
}

/** Accepts every request and never answers. */
export function startHangingServer(): Promise<TestServer> {
  return listen(() => undefined);
}

function listen(handler: http.RequestListener): Promise<TestServer> {
  const server = http.createServer(handler);
  return new Promise((resolve) => {
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as AddressInfo;
      resolve({
        url: `http://127.0.0.1:${port}`,
        close: () =>
          new Promise<void>((done) => {
            server.closeAllConnections();
            server.close(() => done());
          }),
      });
    });
  });
}
