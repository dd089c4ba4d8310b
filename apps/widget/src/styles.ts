/**
 * The widget's styles, inside its shadow root: the host page's CSS cannot reach in and
 * these rules cannot leak out. `--c` is the widget colour from the settings.
 */
export const styles = `
:host{all:initial}
*{box-sizing:border-box;font-family:system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif}
.bubble{position:fixed;right:20px;bottom:20px;z-index:2147483000;width:60px;height:60px;border:0;border-radius:50%;
background:var(--c);color:#fff;cursor:pointer;box-shadow:0 6px 20px rgba(0,0,0,.25);display:flex;align-items:center;justify-content:center;transition:transform .15s}
.bubble:hover{transform:scale(1.06)}
.bubble svg{width:28px;height:28px;fill:currentColor}
.badge{position:absolute;top:-2px;right:-2px;min-width:20px;height:20px;padding:0 6px;border-radius:10px;background:#e03131;color:#fff;font-size:12px;font-weight:600;line-height:20px;text-align:center}
.panel{position:fixed;right:20px;bottom:92px;z-index:2147483000;width:360px;height:560px;max-height:calc(100vh - 112px);
display:flex;flex-direction:column;background:#fff;color:#1f2933;border-radius:16px;overflow:hidden;box-shadow:0 12px 40px rgba(0,0,0,.22);font-size:14px;line-height:1.4}
.panel[hidden],.bubble[hidden]{display:none}
.head{display:flex;align-items:center;gap:12px;padding:14px 16px;background:var(--c);color:#fff}
.logo{width:40px;height:40px;border-radius:50%;background:rgba(255,255,255,.25);object-fit:cover;display:flex;align-items:center;justify-content:center;font-weight:700;font-size:18px;flex:none}
.who{flex:1;min-width:0}
.name{font-weight:700;font-size:16px;white-space:nowrap;overflow:hidden;text-overflow:ellipsis}
.state{font-size:12px;opacity:.9;display:flex;align-items:center;gap:6px}
.dot{width:8px;height:8px;border-radius:50%;background:#adb5bd}
.dot.on{background:#51cf66}
.x{background:none;border:0;color:#fff;font-size:24px;line-height:1;cursor:pointer;padding:4px;opacity:.85}
.x:hover{opacity:1}
.body{flex:1;overflow-y:auto;padding:16px;background:#f4f6f8}
.intro{background:#fff;border-radius:12px;padding:14px;margin-bottom:12px;box-shadow:0 1px 2px rgba(0,0,0,.06)}
.intro b{display:block;font-size:15px;margin-bottom:4px}
form{display:flex;flex-direction:column;gap:10px}
label{display:flex;flex-direction:column;gap:4px;font-size:13px;font-weight:600;color:#343a40}
input[type=text],input[type=email],input[type=tel]{font:inherit;font-weight:400;padding:9px 10px;border:1px solid #ced4da;border-radius:8px;background:#fff;color:#1f2933}
input:focus,textarea:focus{outline:2px solid var(--c);outline-offset:-1px;border-color:transparent}
.check{flex-direction:row;align-items:flex-start;gap:8px;font-weight:400}
.check input{margin-top:3px}
.err{color:#c92a2a;font-size:12px;font-weight:400}
.note{font-size:12px;color:#495057}
.primary{font:inherit;font-weight:600;padding:10px;border:0;border-radius:8px;background:var(--c);color:#fff;cursor:pointer}
.primary:disabled{opacity:.6;cursor:default}
.list{display:flex;flex-direction:column;gap:6px}
.msg{max-width:80%;padding:8px 12px;border-radius:14px;white-space:pre-wrap;word-wrap:break-word;overflow-wrap:anywhere}
.msg.agent{align-self:flex-start;background:#fff;border-bottom-left-radius:4px;box-shadow:0 1px 2px rgba(0,0,0,.06)}
.msg.visitor{align-self:flex-end;background:var(--c);color:#fff;border-bottom-right-radius:4px}
.msg.failed{background:#fff0f0;color:#c92a2a;cursor:pointer}
.from{font-size:11px;font-weight:600;opacity:.7;margin-bottom:2px}
.meta{font-size:11px;opacity:.75;text-align:right;margin-top:2px}
.msg img{display:block;max-width:100%;max-height:220px;border-radius:8px;margin:4px 0}
.msg a{color:inherit;text-decoration:underline;word-break:break-all}
.sys{align-self:center;font-size:12px;color:#868e96;padding:4px 0}
.typing{font-size:12px;color:#868e96;padding:4px 16px;min-height:24px;background:#f4f6f8}
.bar{display:flex;flex-direction:row;align-items:flex-end;gap:6px;padding:10px;border-top:1px solid #e9ecef;background:#fff}
.bar textarea{flex:1;font:inherit;resize:none;border:1px solid #ced4da;border-radius:18px;padding:8px 12px;max-height:96px;min-height:38px;color:#1f2933}
.icon{width:38px;height:38px;flex:none;border:0;border-radius:50%;background:transparent;color:#495057;cursor:pointer;display:flex;align-items:center;justify-content:center}
.icon svg{width:22px;height:22px;fill:currentColor}
.icon.go{background:var(--c);color:#fff}
.icon:disabled{opacity:.5;cursor:default}
.alert{padding:8px 12px;font-size:12px;background:#fff4e6;color:#d9480f;border-top:1px solid #ffe8cc}
.alert[hidden]{display:none}
@media (max-width:480px){.panel{inset:0;width:100%;height:100%;max-height:none;border-radius:0}.bubble[aria-expanded=true]{display:none}}
`;
