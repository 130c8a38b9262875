import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, Repository } from 'typeorm';
import { ApiClient } from '../entities/index.js';

/** api_client I/O. Secrets arrive here already encrypted. */
@Injectable()
export class ApiClientRepository {
  private readonly repo: Repository<ApiClient>;

  constructor(@InjectDataSource() ds: DataSource) {
    this.repo = ds.getRepository(ApiClient);
  }

  async insert(client: ApiClient): Promise<void> {
    await this.repo.insert(client);
  }

  findByAppId(appId: string): Promise<ApiClient | null> {
    return this.repo.findOneBy({ appId });
  }

  count(): Promise<number> {
    return this.repo.count();
  }
}
