# Runs one analyst program inside the bubblewrap sandbox (python-sandbox.ts starts it).
# The job (code, tables, caps, limits) arrives as JSON on stdin, so the code is never part of
# a command line; the answer leaves as ONE JSON document on fd 3, a pipe only Node reads, so
# whatever the code prints (stdout, stderr, warnings) cannot be mistaken for the result.
import datetime
import decimal
import json
import linecache
import math
import os
import resource
import sys
import traceback

RESULT_FD = 3
NO_RESULT = 'The code did not set result_df; assign the answer (a DataFrame, list or value) to result_df.'
MAX_SAFE_INTEGER = 2**53 - 1
MAX_MESSAGE = 8000


def set_limits(limits):
    # Before pandas is imported, so that loading the tables counts against the limits too.
    # RLIMIT_NPROC only holds because the sandbox never runs as the host's root (the kernel
    # exempts root); python-sandbox.ts sees to that.
    mb = limits['memory_bytes']
    resource.setrlimit(resource.RLIMIT_CPU, (limits['cpu_seconds'], limits['cpu_seconds'] + 1))
    resource.setrlimit(resource.RLIMIT_AS, (mb, mb))
    resource.setrlimit(resource.RLIMIT_NPROC, (limits['processes'], limits['processes']))
    resource.setrlimit(resource.RLIMIT_FSIZE, (limits['file_bytes'], limits['file_bytes']))
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))


def load_table(pd, table):
    # DuckDB inferred the types once; passing them on keeps pandas from guessing differently
    # (zip codes as numbers, "NA" as missing). Nullable dtypes first, since any cell may be empty.
    dtype, dates = {}, []
    for column in table['columns']:
        kind = column['type'].upper()
        if kind in ('BIGINT', 'INTEGER', 'SMALLINT', 'TINYINT', 'UINTEGER', 'USMALLINT', 'UTINYINT'):
            dtype[column['name']] = 'Int64'
        elif kind in ('DOUBLE', 'FLOAT', 'REAL') or kind.startswith('DECIMAL'):
            dtype[column['name']] = 'float64'
        elif kind == 'BOOLEAN':
            dtype[column['name']] = 'boolean'
        elif kind == 'DATE' or kind.startswith('TIMESTAMP'):
            dates.append(column['name'])
        elif kind not in ('HUGEINT', 'UBIGINT'):
            dtype[column['name']] = str
    df = pd.read_csv(f"/data/{table['name']}.csv", dtype=dtype, parse_dates=dates, keep_default_na=False, na_values=[''])
    # Plain numpy dtypes where nothing is missing: what pandas code written by anyone expects.
    for name, kind in dtype.items():
        if kind in ('Int64', 'boolean') and not df[name].isna().any():
            df[name] = df[name].astype('int64' if kind == 'Int64' else bool)
    return df


def as_frame(pd, np, value):
    if isinstance(value, pd.Series):
        value = value.to_frame(name=value.name if value.name is not None else 'value')
    elif isinstance(value, dict) and not any(isinstance(v, (list, tuple, np.ndarray, pd.Series)) for v in value.values()):
        value = pd.DataFrame([value])  # a dict of single values is one record, not columns
    elif isinstance(value, (list, tuple, dict, np.ndarray)):
        value = pd.DataFrame(value)
        if isinstance(value.columns, pd.RangeIndex):
            value.columns = ['value'] if len(value.columns) == 1 else [f'column_{i + 1}' for i in value.columns]
    elif value is None or np.isscalar(value) or isinstance(value, (datetime.date, datetime.time, datetime.timedelta, decimal.Decimal)):
        value = pd.DataFrame({'value': [value]})
    elif not isinstance(value, pd.DataFrame):
        raise TypeError(f'result_df is a {type(value).__name__}; assign a DataFrame, Series, list, dict or single value.')
    # A group-by's keys live in the index: they are part of the answer. An unnamed integer
    # index is only row numbers (left by filtering or sorting) and is dropped.
    if any(value.index.names) or not pd.api.types.is_integer_dtype(value.index):
        value = value.reset_index(allow_duplicates=True)
    value.columns = ['_'.join(str(p) for p in c if str(p) != '') if isinstance(c, tuple) else str(c) for c in value.columns]
    return value


def column_type(pd, series):
    if pd.api.types.is_bool_dtype(series):
        return 'BOOLEAN'
    if pd.api.types.is_integer_dtype(series):
        return 'BIGINT'
    if pd.api.types.is_float_dtype(series):
        return 'DOUBLE'
    if pd.api.types.is_datetime64_any_dtype(series):
        if getattr(series.dt, 'tz', None) is not None:
            return 'TIMESTAMP WITH TIME ZONE'
        present = series.dropna()
        return 'DATE' if len(present) and (present == present.dt.normalize()).all() else 'TIMESTAMP'
    if pd.api.types.is_timedelta64_dtype(series):
        return 'INTERVAL'
    kinds = {type(v) for v in series.dropna()}
    if kinds and all(issubclass(k, bool) for k in kinds):
        return 'BOOLEAN'
    if kinds and all(issubclass(k, int) and not issubclass(k, bool) for k in kinds):
        return 'BIGINT'
    if kinds and all(issubclass(k, (int, float, decimal.Decimal)) for k in kinds):
        return 'DOUBLE'
    if kinds and all(issubclass(k, datetime.datetime) for k in kinds):
        return 'TIMESTAMP'
    if kinds and all(issubclass(k, datetime.date) for k in kinds):
        return 'DATE'
    # Mixed or nested values go out as they are (lists, numbers and text side by side).
    return 'VARCHAR' if all(issubclass(k, str) for k in kinds) else 'JSON'


def json_value(pd, np, value, column_kind):
    if isinstance(value, (list, tuple, np.ndarray)):
        return [json_value(pd, np, v, None) for v in value]
    if isinstance(value, dict):
        return {str(k): json_value(pd, np, v, None) for k, v in value.items()}
    if value is None or value is pd.NaT or value is pd.NA or (isinstance(value, float) and math.isnan(value)):
        return None
    if isinstance(value, np.generic):
        value = value.item()
    if isinstance(value, bool) or isinstance(value, str):
        return value
    if isinstance(value, int):
        return value if abs(value) <= MAX_SAFE_INTEGER else str(value)
    if isinstance(value, (float, decimal.Decimal)):
        return float(value) if math.isfinite(value) else None
    if isinstance(value, datetime.datetime) and column_kind == 'DATE':
        return value.date().isoformat()
    if isinstance(value, (datetime.date, datetime.time)):
        return value.isoformat()
    if isinstance(value, bytes):
        return value.decode('utf-8', 'replace')
    return str(value)


def result_document(pd, np, value, max_rows, max_output_bytes):
    df = as_frame(pd, np, value)
    columns = [{'name': name, 'type': column_type(pd, df.iloc[:, i])} for i, name in enumerate(df.columns)]
    rows, size, truncated = [], 2, 'rows' if len(df) > max_rows else None
    for row in df.head(max_rows).itertuples(index=False, name=None):
        encoded = [json_value(pd, np, v, c['type']) for v, c in zip(row, columns)]
        size += len(json.dumps(encoded, ensure_ascii=False, allow_nan=False).encode()) + 1
        if size > max_output_bytes:
            truncated = 'bytes'
            break
        rows.append(encoded)
    return {'ok': {'columns': columns, 'rows': rows, 'row_count': len(df), 'truncated': truncated}}


def failure(error, memory_bytes):
    # The wrapper's own frames mean nothing to whoever wrote the code: start at theirs.
    tb = error.__traceback__
    while tb is not None and tb.tb_frame.f_code.co_filename == __file__:
        tb = tb.tb_next
    # The last lines hold the code's own frame and the message; a huge repr in it is cut.
    text = '\n'.join(''.join(traceback.format_exception(type(error), error, tb)).splitlines()[-20:])[-MAX_MESSAGE:]
    if isinstance(error, MemoryError):
        gb = memory_bytes / 2**30
        return {'kind': 'limit', 'message': f'The code ran out of memory (the sandbox allows {gb:g} GB). Work on fewer rows or columns at a time: filter and select first, or aggregate with SQL.\n{text}'}
    if isinstance(error, OSError) and error.errno in (27, 28):  # EFBIG, ENOSPC: a file in /tmp grew too large
        return {'kind': 'limit', 'message': f'The code wrote too much: files in /tmp are limited in size. Keep intermediate data in memory or write less.\n{text}'}
    return {'kind': 'error', 'message': text}


def main():
    # Keep the result pipe off fd 3, where the code's first open() would otherwise land; the
    # duplicate is not inherited by programs the code might exec.
    out = os.fdopen(os.dup(RESULT_FD), 'wb')
    os.close(RESULT_FD)
    job = json.loads(sys.stdin.buffer.read())
    set_limits(job['limits'])
    try:
        import numpy as np
        import pandas as pd

        frames = {}
        for table in job['tables']:
            try:
                frames[table['name']] = load_table(pd, table)
            except MemoryError:
                raise
            except Exception as error:  # noqa: BLE001 - not the code's fault: say which table
                raise RuntimeError(f"The table {table['name']} could not be loaded into pandas ({error}); check its columns with get_dataset_schema or use SQL.") from None
        linecache.cache['<code>'] = (len(job['code']), None, job['code'].splitlines(True), '<code>')
        namespace = {'__name__': '__main__', 'pd': pd, 'np': np, **frames, 'tables': frames}
        try:
            exec(compile(job['code'], '<code>', 'exec'), namespace)
        except SystemExit as stop:
            if stop.code not in (None, 0):
                raise RuntimeError(f'The code called sys.exit({stop.code!r}); let it end normally with result_df set.') from None
        if 'result_df' not in namespace:
            document = {'error': {'kind': 'error', 'message': NO_RESULT}}
        else:
            document = result_document(pd, np, namespace['result_df'], job['max_rows'], job['max_output_bytes'])
    except BaseException as error:  # noqa: BLE001 - every failure of the code is the answer
        document = {'error': failure(error, job['limits']['memory_bytes'])}
    out.write(json.dumps(document, ensure_ascii=False, allow_nan=False).encode())
    out.close()


main()
