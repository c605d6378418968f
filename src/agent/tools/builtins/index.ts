import type { AnyTool } from '../tool';
import { askUserTool } from './askUser';
import { editFileTool } from './editFile';
import { finishTool } from './finish';
import { listFilesTool } from './listFiles';
import { readFileTool } from './readFile';
import { readOutputTool } from './readOutput';
import { runCommandTool } from './runCommand';
import { searchFilesTool } from './searchFiles';
import { writeFileTool } from './writeFile';

export { askUserTool, editFileTool, finishTool, listFilesTool, readFileTool, readOutputTool, runCommandTool, searchFilesTool, writeFileTool };

/** The built-in tools, read tools first: read_file, list_files, search_files, read_output, write_file, edit_file, run_command, ask_user, finish. */
export function builtinTools(): AnyTool[] {
  return [readFileTool, listFilesTool, searchFilesTool, readOutputTool, writeFileTool, editFileTool, runCommandTool, askUserTool, finishTool];
}
