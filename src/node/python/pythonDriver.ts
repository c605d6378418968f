/**
 * The program the task's Python process runs (`python -u -c DRIVER <mark>`): a small REPL that
 * reads one JSON request per line from stdin ({"code": …}), runs it in one namespace that lives
 * as long as the process (so variables stay), prints the value of a last bare expression, and
 * after each run writes `<mark> {"status", "charts"}` on a line of its own so the Node side knows
 * the run ended. SIGINT raises KeyboardInterrupt in the running code (the timeout) and the
 * session goes on. The code gets no stdin (it belongs to the protocol), stderr goes to stdout so
 * tracebacks stay in order (matplotlib's settings come from `MATPLOTLIBRC`, see `MATPLOTLIB_RC`). Helpers in the namespace: `save_chart(name)` (PNG into
 * STEPWISE_CHARTS_DIR) and `show_table(data, n)` (a markdown table of the first n rows).
 */
export const PYTHON_DRIVER = String.raw`
import ast, json, os, re, signal, sys, traceback
MARK = sys.argv[1]
requests = sys.stdin
sys.stdin = open(os.devnull)
sys.stderr = sys.stdout
CHARTS = os.environ.get('STEPWISE_CHARTS_DIR') or os.path.join(os.getcwd(), 'charts')
saved = []
ns = {'__name__': '__main__', '__builtins__': __builtins__}

def save_chart(name='chart', fig=None):
    """Saves a matplotlib figure (default: the current one) as <name>.png for the report; returns its path."""
    import matplotlib.pyplot as plt
    figure = fig if fig is not None else plt.gcf()
    base = re.sub(r'[^\w-]+', '-', str(name)).strip('-') or 'chart'
    os.makedirs(CHARTS, exist_ok=True)
    path = os.path.join(CHARTS, base + '.png')
    figure.savefig(path, format='png', dpi=100, bbox_inches='tight')
    plt.close(figure)
    if path not in saved:
        saved.append(path)
    print('chart saved: ' + os.path.relpath(path).replace(os.sep, '/'))
    return path

def _cell(value):
    return str(value).replace('|', '\\|').replace('\n', ' ')

def show_table(data, n=10):
    """Prints the first n rows of a DataFrame, Series, list of dicts or list of rows as a markdown table."""
    header, rows, total = None, [], None
    try:
        import pandas as pd
        if isinstance(data, pd.Series):
            data = data.to_frame()
        if isinstance(data, pd.DataFrame):
            total = len(data)
            part = data.head(n)
            keep_index = part.index.name is not None or not pd.api.types.is_integer_dtype(part.index)
            header = ([str(part.index.name or '')] if keep_index else []) + [str(c) for c in part.columns]
            rows = [([idx] if keep_index else []) + list(row) for idx, row in zip(part.index, part.itertuples(index=False))]
    except ImportError:
        pass
    if header is None:
        items = list(data)
        total = len(items)
        items = items[:n]
        if items and isinstance(items[0], dict):
            header = list(items[0].keys())
            rows = [[item.get(k, '') for k in header] for item in items]
        else:
            rows = [list(item) if isinstance(item, (list, tuple)) else [item] for item in items]
            header = [str(i + 1) for i in range(max((len(r) for r in rows), default=1))]
    lines = ['| ' + ' | '.join(_cell(h) for h in header) + ' |', '|' + '---|' * len(header)]
    lines += ['| ' + ' | '.join(_cell(v) for v in row) + ' |' for row in rows]
    if total is not None and total > len(rows):
        lines.append('(first %d of %d rows)' % (len(rows), total))
    print('\n'.join(lines))

ns['save_chart'] = save_chart
ns['show_table'] = show_table

def run(code):
    try:
        tree = ast.parse(code, '<python_execute>', 'exec')
        last = None
        if tree.body and isinstance(tree.body[-1], ast.Expr):
            last = ast.Expression(tree.body.pop().value)
        exec(compile(tree, '<python_execute>', 'exec'), ns)
        if last is not None:
            value = eval(compile(last, '<python_execute>', 'eval'), ns)
            if value is not None:
                print(repr(value))
        return 'ok'
    except KeyboardInterrupt:
        traceback.print_exc(limit=-2)
        return 'interrupted'
    except SystemExit:
        print('(SystemExit ignored: the session stays open)')
        return 'ok'
    except BaseException:
        traceback.print_exc()
        return 'error'

def done(status):
    old = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        sys.stdout.flush()
        sys.__stdout__.write('\n' + MARK + ' ' + json.dumps({'status': status, 'charts': list(saved)}) + '\n')
        sys.__stdout__.flush()
    finally:
        signal.signal(signal.SIGINT, old)

def has(module):
    import importlib.util
    try:
        return importlib.util.find_spec(module) is not None
    except Exception:
        return False

sys.__stdout__.write(MARK + ' ' + json.dumps({'status': 'ready', 'version': sys.version.split()[0], 'executable': sys.executable,
                                             'pandas': has('pandas'), 'matplotlib': has('matplotlib')}) + '\n')
sys.__stdout__.flush()
while True:
    try:
        line = requests.readline()
    except KeyboardInterrupt:
        continue
    if not line:
        break
    status = 'interrupted'
    try:
        del saved[:]
        status = run(json.loads(line)['code'])
    except KeyboardInterrupt:
        status = 'interrupted'
    done(status)
`;

/**
 * The matplotlib settings of the session (a `matplotlibrc` in a folder named by `MATPLOTLIBRC`):
 * draw without a display, and a font list that starts with fonts having Chinese glyphs (LangManus's
 * rule: charts must render Chinese), falling back to matplotlib's own.
 */
export const MATPLOTLIB_RC = [
  'backend: Agg',
  'axes.unicode_minus: False',
  'font.sans-serif: WenQuanYi Micro Hei, WenQuanYi Zen Hei, Noto Sans CJK SC, Noto Sans CJK JP, Source Han Sans SC, SimHei, Microsoft YaHei, PingFang SC, Heiti SC, Arial Unicode MS, DejaVu Sans, sans-serif',
  '',
].join('\n');
