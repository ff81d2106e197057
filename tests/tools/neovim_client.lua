-- neovim_client.lua - Neovim's own LSP client (0.7 API: start_client + buf_attach_client) against
-- `ptxdvfs lsp`: open a file, wait for the diagnostics, hover the kernel, write what it saw.
local program, file, output = os.getenv('PTXDVFS'), os.getenv('DOCUMENT'), os.getenv('OUTPUT')
local lines = {}
local function finish(status)
  local handle = io.open(output, 'w')
  handle:write(table.concat(lines, '\n') .. '\n')
  handle:close()
  vim.cmd(status == 0 and 'qall!' or 'cquit! ' .. status)
end

local client = vim.lsp.start_client({ name = 'ptxdvfs', cmd = { program, 'lsp', '--all' },
                                      root_dir = vim.fn.fnamemodify(file, ':h') })
if not client then
  table.insert(lines, 'error: the client did not start')
  return finish(1)
end
vim.cmd('edit ' .. vim.fn.fnameescape(file))
vim.lsp.buf_attach_client(0, client)
local published = vim.wait(30000, function() return #vim.diagnostic.get(0) > 0 end, 50)
if not published then
  table.insert(lines, 'error: no diagnostics within 30 s')
  return finish(1)
end
for _, diagnostic in ipairs(vim.diagnostic.get(0)) do
  table.insert(lines, string.format('diagnostic %d:%d severity %d: %s', diagnostic.lnum + 1,
                                    diagnostic.col + 1, diagnostic.severity, diagnostic.message))
end
local first = vim.diagnostic.get(0)[1]
local params = { textDocument = vim.lsp.util.make_text_document_params(),
                 position = { line = first.lnum, character = first.col + 1 } }
local answers = vim.lsp.buf_request_sync(0, 'textDocument/hover', params, 10000)
for _, answer in pairs(answers or {}) do
  if answer.result and answer.result.contents then
    table.insert(lines, 'hover: ' .. answer.result.contents.value:gsub('\n', ' '))
  end
end
vim.lsp.stop_client(client)
finish(0)
