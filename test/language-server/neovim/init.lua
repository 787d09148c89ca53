-- Drives headless Neovim as a user would through its built-in LSP client, against `paygate lsp --stdio`,
-- and writes what it saw as JSON to $PAYGATE_OUT. Started by test/language-server/neovim.test.ts:
--   PAYGATE_CMD     the server command, a JSON array
--   PAYGATE_ALIAS   a batch with two aliased header cells (mistakes.rpcsv)
--   PAYGATE_MISSING a batch without the currency column
-- Every wait is bounded; any error ends the run with the error in the JSON. Works on Neovim 0.7 (Debian 12)
-- and later: vim.lsp.start_client + buf_attach_client, code actions picked through vim.ui.select.
local out_path = assert(os.getenv('PAYGATE_OUT'), 'PAYGATE_OUT')
local WAIT_MS = 15000
local result = {}

local function finish(err)
  if err then result.error = tostring(err) end
  local f = assert(io.open(out_path, 'w'))
  f:write(vim.fn.json_encode(result))
  f:close()
  vim.cmd('qall!')
end

local function wait(what, cond)
  if not vim.wait(WAIT_MS, cond, 20) then error('timed out waiting for ' .. what) end
end

local function diagnostics(bufnr)
  local out = {}
  for _, d in ipairs(vim.diagnostic.get(bufnr)) do
    local lsp = d.user_data and d.user_data.lsp or {}
    table.insert(out, {
      code = d.code or lsp.code,
      href = lsp.codeDescription and lsp.codeDescription.href or vim.NIL,
      lnum = d.lnum, col = d.col, end_lnum = d.end_lnum, end_col = d.end_col,
      severity = d.severity, source = d.source, message = d.message,
    })
  end
  table.sort(out, function(a, b) return a.lnum < b.lnum or (a.lnum == b.lnum and a.col < b.col) end)
  return out
end

local function has_code(bufnr, code)
  for _, d in ipairs(diagnostics(bufnr)) do
    if d.code == code then return true end
  end
  return false
end

local client_id
local function open(path)
  vim.cmd('edit ' .. vim.fn.fnameescape(path))
  local bufnr = vim.api.nvim_get_current_buf()
  -- The language id Neovim sends is the filetype: what a user's filetype rule would set for *.rpcsv.
  vim.bo[bufnr].filetype = 'paygate-recurring-csv'
  if not client_id then
    client_id = vim.lsp.start_client({
      name = 'paygate',
      cmd = vim.fn.json_decode((assert(os.getenv('PAYGATE_CMD'), 'PAYGATE_CMD'))),
      root_dir = vim.fn.fnamemodify(path, ':h'),
    })
    assert(client_id, 'the client started')
  end
  assert(vim.lsp.buf_attach_client(bufnr, client_id), 'attached')
  return bufnr
end

-- Runs Neovim's own code action flow at the cursor and picks the action titled `title` in its menu.
local function code_action(title)
  local offered = {}
  vim.ui.select = function(items, opts, on_choice)
    local chosen
    for _, item in ipairs(items) do
      local t = opts.format_item and opts.format_item(item) or item[2].title
      table.insert(offered, t)
      if not chosen and t:find(title, 1, true) then chosen = item end
    end
    on_choice(chosen)
  end
  vim.lsp.buf.code_action()
  return offered
end

local function main()
  -- 1. Diagnostics, hover and a quick fix on the aliased header.
  local bufnr = open(assert(os.getenv('PAYGATE_ALIAS')))
  wait('four diagnostics', function() return #vim.diagnostic.get(bufnr) == 4 end)
  result.diagnostics = diagnostics(bufnr)

  local line0 = vim.api.nvim_buf_get_lines(bufnr, 0, 1, false)[1]
  local at = line0:find('currency', 1, true) - 1
  local hover = vim.lsp.buf_request_sync(bufnr, 'textDocument/hover', {
    textDocument = { uri = vim.uri_from_bufnr(bufnr) },
    position = { line = 0, character = at + 2 },
  }, WAIT_MS)
  local answer = hover and hover[client_id] and hover[client_id].result
  result.hover = answer and { value = answer.contents.value, range = answer.range } or vim.NIL

  local alias = line0:find('Rp_Card_Type', 1, true) - 1
  vim.api.nvim_win_set_cursor(0, { 1, alias + 1 })
  result.offered = code_action('Rename column to rp_card_type')
  wait('the rename applied', function() return vim.api.nvim_buf_get_lines(bufnr, 0, 1, false)[1] ~= line0 end)
  result.after_fix = vim.api.nvim_buf_get_lines(bufnr, 0, -1, false)
  wait('three diagnostics', function() return #vim.diagnostic.get(bufnr) == 3 end)
  result.diagnostics_after_fix = diagnostics(bufnr)

  -- 2. A missing column: the every-row edit is resolved when picked (codeAction/resolve).
  local missing = open(assert(os.getenv('PAYGATE_MISSING')))
  wait('missing-column', function() return has_code(missing, 'missing-column') end)
  local before = vim.api.nvim_buf_get_lines(missing, 0, 1, false)[1]
  vim.api.nvim_win_set_cursor(0, { 1, 0 })
  result.offered_missing = code_action('Add column currency')
  wait('the column added', function() return vim.api.nvim_buf_get_lines(missing, 0, 1, false)[1] ~= before end)
  result.after_missing = vim.api.nvim_buf_get_lines(missing, 0, -1, false)
  wait('no missing-column', function() return not has_code(missing, 'missing-column') end)
  result.diagnostics_after_missing = diagnostics(missing)
end

vim.schedule(function()
  local ok, err = xpcall(main, debug.traceback)
  finish(not ok and err or nil)
end)
