import { getDatasetRecord } from '@docagent/core';
import type { Pack } from '../../engine/pack.ts';
import type { ToolDefinition } from '../../tools/tool.ts';
import { dataSection } from './context-section.ts';
import { getDatasetSchemaTool, listDatasetsTool } from './dataset-tools.ts';
import { executePythonTool, executeQueryPlanTool, executeSqlTool } from './query-tools.ts';
import { DATA_STATE_KEYS } from './shared.ts';

/** The data analyst's tools (seed 004): all read-only, so they run without approval. */
export const dataTools: ToolDefinition[] = [
  listDatasetsTool,
  getDatasetSchemaTool,
  executeSqlTool,
  executeQueryPlanTool,
  executePythonTool,
];

/**
 * The dataset subject: conversations about a dataset, answered by querying its tables; and in a
 * project's conversations, the project's tables (the notes pack owns that subject).
 */
export const dataPack: Pack = {
  name: 'data',
  serves: ['dataset', 'project'],
  owns: ['dataset'],
  tools: dataTools,
  async findSubject(services, access, subject) {
    const dataset = await getDatasetRecord(services.db, access.orgId, subject.id);
    return { title: dataset.name };
  },
  section: dataSection,
  workingStateKeys: DATA_STATE_KEYS,
  subjectArgument: { name: 'dataset_id', description: 'The dataset the call is about (list_datasets names them)' },
};

export {
  chatOnDataset,
  type DatasetChatBody,
  type DatasetChatEvent,
  type DatasetChatRequest,
  type DatasetChatSink,
  datasetChatTools,
} from './dataset-chat.ts';
export { fastQueryOf } from './fast-path.ts';
export type { DataWorkingState } from './shared.ts';
