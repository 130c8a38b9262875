import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, IsArray, IsBoolean, IsOptional, IsString, Matches, MaxLength } from 'class-validator';
import { BOUNDS, MAX_IMPORT_ENTRIES, MAX_IMPORT_REJECTED_LISTED, nameMessage } from '../../../common/index.js';
import { BoundedString, FILE_NAME_PATTERN, NameString } from './validators.js';

const { timeZone, fileName, content, mapUsers, crontabUser } = BOUNDS;
/** A cron.d user name, as the crontab parser reads the user column. */
const CRONTAB_USER = /^[A-Za-z_][A-Za-z0-9_.-]*\$?$/;

/** POST /api/jobs/import-crontab body. */
export class ImportCrontabDto {
  @NameString(fileName, FILE_NAME_PATTERN, nameMessage('fileName', 'A-Za-z0-9_.-', fileName), {
    required: true,
    api: {
      description:
        `File name, used in the job codes (<name>-L<line>), ${fileName.min}-${fileName.max} of A-Z a-z 0-9 _ . -.`,
      example: 'sysstat',
    },
  })
  fileName: string;

  @BoundedString(content, {
    required: true,
    api: {
      description:
        `The cron.d file content (m h dom mon dow user command), at most ${content.max} characters and ` +
        `${MAX_IMPORT_ENTRIES} entries.`,
    },
  })
  content: string;

  @BoundedString(timeZone, { api: { description: 'Zone the entries are read in (default UTC).' } })
  timeZone?: string;

  @ApiPropertyOptional({
    description:
      'Create the jobs enabled (default false: review, then resume). A line whose user is not in mapUsers stays ' +
      'paused either way (pausedReason CRONTAB_USER).',
  })
  @IsOptional()
  @IsBoolean()
  enable?: boolean;

  @ApiPropertyOptional({
    type: [String],
    maxItems: mapUsers.max,
    description:
      `Crontab users (at most ${mapUsers.max}, each ${crontabUser.min}-${crontabUser.max} characters) whose ` +
      "commands you vouch work as the app's shell uid, which is never the named user (README \"The shell " +
      'handler"). A line naming any other user is imported paused with pausedReason CRONTAB_USER, even with ' +
      'enable; resuming the job clears it. Default none.',
    example: ['root'],
  })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(mapUsers.max)
  @IsString({ each: true })
  @MaxLength(crontabUser.max, { each: true })
  @Matches(CRONTAB_USER, { each: true, message: 'mapUsers entries are cron.d user names ([A-Za-z_][A-Za-z0-9_.-]*)' })
  mapUsers?: string[];
}

/** A line of an imported file that did not become a job, and why (both cut for the answer). */
export class RejectedLineDto {
  @ApiProperty({ description: 'The line number in the file, from 1.' }) lineNo: number;
  @ApiProperty({ description: 'The line, cut to 200 characters (ending with … when cut).' }) line: string;
  @ApiProperty({ description: 'Why it is not a job, cut to 300 characters.' }) reason: string;
}

/** POST /api/jobs/import-crontab answer. */
export class CrontabImportResultDto {
  @ApiProperty({ type: [String], description: 'Codes of the jobs created.' }) created: string[];
  @ApiProperty({ type: [String], description: 'Codes of the jobs updated (imported before).' }) updated: string[];
  @ApiProperty({
    type: [RejectedLineDto],
    description: `The first ${MAX_IMPORT_REJECTED_LISTED} lines that are not jobs, in line order.`,
  })
  rejected: RejectedLineDto[];
  @ApiProperty({ description: 'How many lines were rejected in all (rejected lists the first ones).' })
  rejectedTotal: number;
  @ApiProperty({
    type: [String],
    description:
      'Codes of the jobs (created or updated) kept paused with pausedReason CRONTAB_USER: their line names a user ' +
      'not in mapUsers, and the command would run as the app\'s shell uid instead.',
  })
  pausedForUser: string[];
}
